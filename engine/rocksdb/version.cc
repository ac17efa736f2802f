// RocksDB reports its version only through its C++ API.

#include <string>

#include <rocksdb/version.h>

#include "binding.h"

const char *tsb_rocksdb_version(void)
{
	static const std::string v = ROCKSDB_NAMESPACE::GetRocksVersionAsString(true);
	return v.c_str();
}
