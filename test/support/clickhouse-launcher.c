/*
 * Test-only ClickHouse server: runs the command-line entry point (clickhouse-local) of the chDB
 * library Sift already installs, whose build contains ClickHouse's own HTTP and TCP servers.
 *
 *   clickhouse-launcher /path/to/libchdb.so [clickhouse-local arguments...]
 *
 * Built by test/support/clickhouse-server.ts with the machine's C compiler. The library is loaded
 * with dlopen, not linked, so nothing needs its headers.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* chdb.h's result of query_stable_v2 (only error_message is read here). */
struct local_result_v2 {
  char *buf;
  size_t len;
  void *vec;
  double elapsed;
  uint64_t rows_read;
  uint64_t bytes_read;
  char *error_message;
};

typedef struct local_result_v2 *(*query_fn)(int, char **);

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s LIBCHDB [clickhouse-local arguments]\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  query_fn query = (query_fn)dlsym(lib, "query_stable_v2");
  if (!query) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  argv[1] = "clickhouse";
  struct local_result_v2 *result = query(argc - 1, argv + 1);
  if (!result) {
    fprintf(stderr, "the engine returned no result\n");
    return 1;
  }
  if (result->error_message) {
    fprintf(stderr, "%s\n", result->error_message);
    return 1;
  }
  return 0;
}
