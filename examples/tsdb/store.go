package main

import (
	"sync"

	"github.com/tsbench/storage/engine"
)

// store is the database: points and the series index, in one engine.
type store struct {
	db      engine.Engine
	idx     *index
	writeMu sync.Mutex // one write at a time, so that new series take consecutive ids
}

func openStore(db engine.Engine) (*store, error) {
	idx, err := loadIndex(db)
	if err != nil {
		return nil, err
	}
	return &store{db: db, idx: idx}, nil
}
