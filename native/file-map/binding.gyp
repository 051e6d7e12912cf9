{
  "targets": [
    {
      "target_name": "file_map",
      "sources": ["file-map.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"]
    }
  ]
}
