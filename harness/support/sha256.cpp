#include "harness/support/sha256.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "harness/support/errors.hpp"

namespace twinproof {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
}

Sha256::~Sha256() { EVP_MD_CTX_free(ctx_); }

void Sha256::update(const void* data, std::size_t n) {
  if (EVP_DigestUpdate(ctx_, data, n) != 1) throw std::runtime_error("OpenSSL: SHA-256 update failed");
}

std::string Sha256::hex_digest() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx_, md, &len) != 1) throw std::runtime_error("OpenSSL: SHA-256 final failed");
  std::string hex;
  for (unsigned i = 0; i < len; ++i) hex += fmt::format("{:02x}", md[i]);
  return hex;
}

std::string sha256_hex(const void* data, std::size_t n) {
  Sha256 h;
  h.update(data, n);
  return h.hex_digest();
}

std::string sha256_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw InputError(path, "file", path, std::strerror(errno));
  Sha256 h;
  std::vector<unsigned char> buf(1 << 20);
  std::size_t got = 0;
  while ((got = std::fread(buf.data(), 1, buf.size(), f)) > 0) h.update(buf.data(), got);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw InputError(path, "file", path, std::string("read failed: ") + std::strerror(errno));
  return h.hex_digest();
}

}  // namespace twinproof
