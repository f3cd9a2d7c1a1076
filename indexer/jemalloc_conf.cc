// jemalloc_conf.cc: jemalloc's options for blogsearch-index, linked only
// when jemalloc is (CMakeLists.txt). jemalloc reads this symbol when it
// starts; $MALLOC_CONF still overrides it.
//
// One arena instead of jemalloc's default of four per core: the ingest's
// threads hand strings to one another (a parsed feed to the writer, a
// document to its shard's thread), and with one arena what one thread frees
// is reused by the next allocation of any thread instead of being returned
// to the kernel and faulted in again. Each thread's cache still serves most
// allocations without the arena's lock. blog-history, `add --link`, median
// of 8 interleaved runs each: 4.37 -> 4.06 s CPU and 2.38 -> 2.22 s wall
// (narenas:2 gave the same as 1).
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "narenas:1";
}
