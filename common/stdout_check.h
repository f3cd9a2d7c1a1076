// stdout_check.h: whether a program's output reached standard output.
//
// A full disk or a closed file makes writes fail long after they were
// made (at a flush, at exit); a program that does not look exits 0 over
// half a JSON document. Each main calls finish_stdout() before it returns:
// it flushes std::cout and C's stdout, and on failure writes one line to
// stderr ("PROGRAM: cannot write to standard output: REASON", the reason
// when errno still tells it) and returns
// false, so the main returns a non-zero status. Nothing here throws.
//
// A one-shot process that only read its database may end with
// exit_after_stdout() instead: it checks stdout the same way and ends the
// process without unwinding (closing the database's tables and freeing
// memory one by one was 2% of a search from the command line; the kernel
// does both at exit). Sanitizer builds run LeakSanitizer's check there
// first, as an exit handler would have.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include <cerrno>
#include <cstdio>
#include <cstdlib>
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

// Ends the process: `rc` when finish_stdout(program) succeeds, else
// `rc_unwritten`.
[[noreturn]] inline void exit_after_stdout(const char* program, int rc, int rc_unwritten) {
  const bool written = finish_stdout(program);
  std::cerr.flush();
#if defined(__SANITIZE_ADDRESS__)
  __lsan_do_leak_check();
#endif
  std::_Exit(written ? rc : rc_unwritten);
}

}  // namespace blogsearch
