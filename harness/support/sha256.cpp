#include "harness/support/sha256.hpp"

#include <cstdio>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "harness/io/frame.hpp"

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
  InputFile in(path);
  Sha256 h;
  std::vector<unsigned char> buf(1 << 20);
  for (;;) {
    const std::size_t got = in.read(buf.data(), buf.size());
    if (got == 0) break;
    h.update(buf.data(), got);
  }
  return h.hex_digest();
}

}  // namespace twinproof
