package main

import (
	"strings"
	"testing"
)

// TestEngineMissingFromBuild: an engine a build without cgo lacks is
// refused with the way to get it, not as unknown.
func TestEngineMissingFromBuild(t *testing.T) {
	defer func(m []string) { enginesMissing = m }(enginesMissing)
	enginesMissing = []string{"nocgodb"}
	_, _, err := parseEngines("nocgodb")
	if err == nil || !strings.Contains(err.Error(), "this build lacks nocgodb") || !strings.Contains(err.Error(), "make build") {
		t.Errorf("parseEngines = %v, want the build to be named as lacking it", err)
	}
}
