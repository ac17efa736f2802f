package main

import (
	"fmt"
	"os"
	"time"

	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
)

// checkDatasets opens the dataset of every engine before anything is
// created, so that a mismatch costs nothing.
func checkDatasets(s *settings) error {
	if s.common.Dataset == "" {
		return nil
	}
	if fi, err := os.Stat(s.common.Dataset); err == nil && !fi.IsDir() {
		return inputErrorf("-dataset %s is a file: give a directory, new or one an earlier run wrote", s.common.Dataset)
	}
	for _, name := range s.engines {
		if _, err := suite.OpenDataset(s.common.Dataset, s.common.Sizes(), name, s.effective(name)); err != nil {
			return invalidSettings(err)
		}
	}
	return nil
}

// reusedNote is the line the parent prints for a run that started from a
// dataset.
func reusedNote(r *dataset.Use) string {
	if r == nil || !r.Reused {
		return ""
	}
	return fmt.Sprintf("reused the dataset %s (written %s), cloned by %s in %s", r.Path, r.Created.Format(time.DateTime), r.Method, harness.Round(r.Clone))
}
