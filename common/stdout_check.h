// stdout_check.h: whether a program's output reached standard output.
//
// A full disk or a closed file makes writes fail long after they were
// made (at a flush, at exit); a program that does not look exits 0 over
// half a JSON document. Each main calls finish_stdout() before it returns:
// it flushes std::cout and C's stdout, and on failure writes one line to
// stderr ("PROGRAM: cannot write to standard output: REASON", the reason
// when errno still tells it) and returns
// false, so the main returns a non-zero status. Nothing here throws.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace blogsearch {

// errno as a write left it, when it is one that a write sets; else -1 (a
// stream may have failed at an earlier flush, and errno been set since by
// something else).
inline int write_errno() {
  switch (errno) {
    case ENOSPC: case EDQUOT: case EFBIG: case EIO: case EPIPE: case EBADF: case EROFS: case EACCES:
      return errno;
    default:
      return -1;
  }
}

inline bool finish_stdout(const char* program) {
  int error = 0;
  std::cout.flush();
  if (!std::cout) error = write_errno();
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) error = error ? error : write_errno();
  if (error == 0) return true;
  if (error > 0) std::fprintf(stderr, "%s: cannot write to standard output: %s\n", program, std::strerror(error));
  else std::fprintf(stderr, "%s: cannot write to standard output\n", program);
  return false;
}

}  // namespace blogsearch
