// RocksDB's TTL database behind engine.Options.Expiry (see expiry.go).

#include "binding.h"

levelcore_ops tsb_rocksdb_expiry_ops;

// open_with_ttl opens the database with RocksDB's TTL, which the options
// hold (setExpiry): every value carries its write time, and compactions
// drop the entries older than the TTL.
static void *open_with_ttl(void *options, const char *dir, char **err)
{
	rocksdb_options_t *o = ((tsb_rocksdb_options *)options)->opts;
	return rocksdb_open_with_ttl(o, dir, (int)rocksdb_options_get_ttl(o), err);
}

void tsb_rocksdb_expiry_init(void)
{
	tsb_rocksdb_expiry_ops = tsb_rocksdb_ops;
	tsb_rocksdb_expiry_ops.open = open_with_ttl;
}
