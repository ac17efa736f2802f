// RocksDB reports its version only through its C++ API. The release
// library ships no C++ headers, so the one declaration needed is here; its
// mangled name (std::string return, C++11 ABI) is what the library exports.

#include <string>

#include "binding.h"

namespace rocksdb {
std::string GetRocksVersionAsString(bool with_patch);
}

const char *tsb_rocksdb_version(void)
{
	static const std::string v = rocksdb::GetRocksVersionAsString(true);
	return v.c_str();
}
