// SHA-256 through OpenSSL's EVP interface: vectors are pinned by the hash of their raw stream.
#pragma once

#include <cstddef>
#include <string>

struct evp_md_ctx_st;

namespace twinproof {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(const void* data, std::size_t n);
  std::string hex_digest();  // finishes the hash

 private:
  evp_md_ctx_st* ctx_;
};

std::string sha256_hex(const void* data, std::size_t n);
std::string sha256_file(const std::string& path);  // throws InputError when unreadable

}  // namespace twinproof
