// prefault.h: the memory of a short-lived process mapped in a few system
// calls instead of one page fault at a time.
//
// A search from the command line, or a request answered as plain CGI, is a
// process of a few milliseconds that touches most of its program image and
// a few hundred KB of heap. In a virtual machine each first touch of a page
// traps to the hypervisor: about 11 µs a page on the development machine,
// against about 1 µs a page for madvise(MADV_POPULATE_*). One search for
// `python` over blog-history took about 180 page faults.
#pragma once

#include <cstddef>

namespace blogsearch {

// Maps the program's own image (its read-only segments readable, its
// writable ones written) and grows the heap by `heap_bytes`, mapped, which
// malloc then keeps (its trim threshold is raised past it, and requests up
// to twice it come from the heap instead of mmap). For a process that ends
// soon: call it first in main, never in a long-running server. Best effort:
// on a kernel without MADV_POPULATE_* (before Linux 5.14) nothing is mapped
// ahead, and a sanitizer build does nothing. Never fails.
void prefault_short_process(std::size_t heap_bytes = std::size_t{512} << 10);

}  // namespace blogsearch
