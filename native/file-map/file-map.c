/*
 * Maps a file's bytes into memory as an ArrayBuffer (Node-API, POSIX mmap). The index image
 * (src/search/index/image-file.ts) is read through it: its pages stay in the kernel's page cache,
 * shared by every process that maps the file and given back under memory pressure, instead of a
 * private copy of the whole image in each process. Node has no mmap of its own; no maintained npm
 * package builds on Node 20 (docs/DEPENDENCIES.md).
 *
 * The mapping is private (MAP_PRIVATE) and writable: a write lands in a page of this process's
 * own, never in the file, so code that edits an array it loaded behaves as with a copy. Or, asked
 * for (`shared`), shared and read-only (MAP_SHARED, PROT_READ): it then shows what other processes
 * write to the file as they write it (SQLite's wal-index, src/store/sqlite/wal-header.ts), and a
 * write to it is a crash, so only code that reads holds one. Unmapped when the ArrayBuffer is
 * collected.
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  void *addr;
  size_t length;
} mapping;

static void unmap(napi_env env, void *data, void *hint) {
  (void)env;
  (void)data;
  mapping *m = hint;
  munmap(m->addr, m->length);
  free(m);
}

static napi_value fail(napi_env env, const char *code, const char *message) {
  napi_throw_error(env, code, message);
  return NULL;
}

/*
 * map(fd, offset, length[, shared]): bytes [offset, offset + length) of the open file fd; offset a
 * multiple of pageSize; `shared` true for a read-only view of the file as other processes write it.
 */
static napi_value map(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  int32_t fd;
  int64_t offset, length;
  bool shared = false;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok ||
      napi_get_value_int64(env, argv[1], &offset) != napi_ok ||
      napi_get_value_int64(env, argv[2], &length) != napi_ok ||
      (argc > 3 && napi_get_value_bool(env, argv[3], &shared) != napi_ok))
    return fail(env, "ERR_INVALID_ARG_TYPE",
                "map(fd, offset, length[, shared]) takes three numbers and a boolean");
  long page = sysconf(_SC_PAGESIZE);
  if (offset < 0 || length <= 0 || offset % page != 0)
    return fail(env, "ERR_OUT_OF_RANGE", "map: offset must be a multiple of the page size, length > 0");
  void *addr = mmap(NULL, (size_t)length, shared ? PROT_READ : PROT_READ | PROT_WRITE,
                    shared ? MAP_SHARED : MAP_PRIVATE, fd, (off_t)offset);
  if (addr == MAP_FAILED) return fail(env, "ERR_MMAP", strerror(errno));
  mapping *m = malloc(sizeof *m);
  if (!m) {
    munmap(addr, (size_t)length);
    return fail(env, "ERR_MMAP", "out of memory");
  }
  m->addr = addr;
  m->length = (size_t)length;
  napi_value buffer;
  if (napi_create_external_arraybuffer(env, addr, (size_t)length, unmap, m, &buffer) != napi_ok) {
    munmap(addr, (size_t)length);
    free(m);
    return fail(env, "ERR_MMAP", "could not make an ArrayBuffer of the mapping");
  }
  return buffer;
}

/*
 * resident(buffer, offset, length): how many bytes of [offset, offset + length) of a mapped
 * ArrayBuffer are in memory now, a page at a time (mincore): what a process holds of a file it maps,
 * for the benchmarks that measure it (bench/image-residency.bench.ts). Not used to serve.
 */
static napi_value resident(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  void *data;
  size_t size;
  int64_t offset, length;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      napi_get_arraybuffer_info(env, argv[0], &data, &size) != napi_ok ||
      napi_get_value_int64(env, argv[1], &offset) != napi_ok ||
      napi_get_value_int64(env, argv[2], &length) != napi_ok)
    return fail(env, "ERR_INVALID_ARG_TYPE", "resident(buffer, offset, length)");
  if (offset < 0 || length < 0 || (uint64_t)(offset + length) > size)
    return fail(env, "ERR_OUT_OF_RANGE", "resident: the range is not inside the buffer");
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t from = ((uintptr_t)data + (uintptr_t)offset) & ~(uintptr_t)(page - 1);
  uintptr_t to = (uintptr_t)data + (uintptr_t)offset + (uintptr_t)length;
  size_t pages = (to - from + (size_t)page - 1) / (size_t)page;
  unsigned char *vec = malloc(pages > 0 ? pages : 1);
  if (!vec) return fail(env, "ERR_MINCORE", "out of memory");
  if (pages > 0 && mincore((void *)from, to - from, vec) != 0) {
    free(vec);
    return fail(env, "ERR_MINCORE", strerror(errno));
  }
  int64_t in = 0;
  for (size_t i = 0; i < pages; i++) in += vec[i] & 1;
  free(vec);
  napi_value out;
  napi_create_int64(env, in * page, &out);
  return out;
}

/*
 * trimMalloc(): glibc's malloc_trim(0), which gives the free pages inside malloc's heaps back to the
 * kernel, not only the heap's top (what free() does by itself): what an index open, a warm-up or a
 * build freed stays resident otherwise (~7 MB of a settled 1M node, docs/perf-log/2026-12-07-compiled.md).
 * true when some memory was given back; false where the C library is not glibc.
 */
static napi_value trim_malloc(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value out;
#ifdef __GLIBC__
  napi_get_boolean(env, malloc_trim(0) == 1, &out);
#else
  napi_get_boolean(env, false, &out);
#endif
  return out;
}

NAPI_MODULE_INIT() {
  napi_value fn, page;
  napi_create_function(env, "trimMalloc", NAPI_AUTO_LENGTH, trim_malloc, NULL, &fn);
  napi_set_named_property(env, exports, "trimMalloc", fn);
  napi_create_function(env, "map", NAPI_AUTO_LENGTH, map, NULL, &fn);
  napi_set_named_property(env, exports, "map", fn);
  napi_create_function(env, "resident", NAPI_AUTO_LENGTH, resident, NULL, &fn);
  napi_set_named_property(env, exports, "resident", fn);
  napi_create_int64(env, sysconf(_SC_PAGESIZE), &page);
  napi_set_named_property(env, exports, "pageSize", page);
  return exports;
}
