// RocksDB reports its version only through its C++ API, which the release
// library ships no header for. Its releases differ in std::string's ABI
// (10.x were built with the pre-C++11 one), so the function is looked up
// at run time under either mangled name: a library lacking one of them
// still loads, and the version is the loaded library's own.

#include <dlfcn.h>

#include <string>

#include "binding.h"

namespace {

// old_string is std::string in the pre-C++11 ABI: one pointer to its
// characters, NUL-terminated. Its destructor is user-provided, as
// std::string's is, so that it is returned through a hidden pointer
// alike; it frees nothing, which leaks one string once.
struct old_string {
	const char *chars;
	~old_string() {}
};

std::string version()
{
	if (auto f = reinterpret_cast<std::string (*)(bool)>(
		    dlsym(RTLD_DEFAULT, "_ZN7rocksdb23GetRocksVersionAsStringB5cxx11Eb")))
		return f(true);
	if (auto f = reinterpret_cast<old_string (*)(bool)>(
		    dlsym(RTLD_DEFAULT, "_ZN7rocksdb23GetRocksVersionAsStringEb")))
		return f(true).chars;
	return "";
}

} // namespace

const char *tsb_rocksdb_version(void)
{
	static const std::string v = version();
	return v.c_str();
}
