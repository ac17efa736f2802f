package measure

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// ResetPeakRSS restarts the kernel's peak resident set size (VmHWM) from
// the current RSS, so that PeakRSS reports the peak of what follows.
func ResetPeakRSS() error { return resetPeakRSS("self") }

// ResetPeakRSSOf is ResetPeakRSS for process pid, which must be this
// user's.
func ResetPeakRSSOf(pid int) error { return resetPeakRSS(strconv.Itoa(pid)) }

func resetPeakRSS(proc string) error {
	// "5" resets the peak RSS; see proc(5), /proc/pid/clear_refs.
	if err := os.WriteFile("/proc/"+proc+"/clear_refs", []byte("5"), 0); err != nil {
		return fmt.Errorf("measure: reset peak RSS: %w", err)
	}
	return nil
}

// PeakRSS returns the process's peak resident set size in bytes since it
// started or since the last ResetPeakRSS.
func PeakRSS() (int64, error) { return peakRSS("self") }

// PeakRSSOf is PeakRSS for process pid.
func PeakRSSOf(pid int) (int64, error) { return peakRSS(strconv.Itoa(pid)) }

func peakRSS(proc string) (int64, error) {
	b, err := os.ReadFile("/proc/" + proc + "/status")
	if err != nil {
		return 0, fmt.Errorf("measure: %w", err)
	}
	for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:"))
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("measure: VmHWM: %w", err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("measure: /proc/self/status has no VmHWM")
}

// OpenFDs counts the process's open file descriptors.
func OpenFDs() (int, error) {
	f, err := os.Open("/proc/self/fd")
	if err != nil {
		return 0, fmt.Errorf("measure: %w", err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return 0, fmt.Errorf("measure: %w", err)
	}
	// The directory handle read here is itself one of the entries.
	return len(names) - 1, nil
}
