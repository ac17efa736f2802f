#include "binding.h"

int tsb_rocksdb_cursor_move(tsb_rocksdb_cursor *c, int op,
			    const char *k, size_t klen)
{
	switch (op) {
	case TSB_ROCKSDB_FIRST:
		rocksdb_iter_seek_to_first(c->it);
		break;
	case TSB_ROCKSDB_LAST:
		rocksdb_iter_seek_to_last(c->it);
		break;
	case TSB_ROCKSDB_SEEK:
		rocksdb_iter_seek(c->it, k, klen);
		break;
	case TSB_ROCKSDB_NEXT:
		rocksdb_iter_next(c->it);
		break;
	case TSB_ROCKSDB_PREV:
		rocksdb_iter_prev(c->it);
		break;
	}
	if (!rocksdb_iter_valid(c->it)) {
		rocksdb_iter_get_error(c->it, &c->err);
		return 0;
	}
	c->key = rocksdb_iter_key(c->it, &c->klen);
	c->val = rocksdb_iter_value(c->it, &c->vlen);
	return 1;
}
