// Package cgroup runs a child process in a memory cgroup of a given size
// and reads what it uses, so that each engine gets the same amount of a
// machine's RAM, page cache included: the kernel counts the page cache
// an engine's reads and writes bring in against its group's limit,
// reclaims it when the group nears the limit, and OOM-kills the group's
// processes when anonymous memory alone would exceed it.
//
// It works on cgroup v2 (the unified hierarchy, usually at
// /sys/fs/cgroup, with "memory" in cgroup.controllers) and on cgroup v1's
// memory hierarchy (usually /sys/fs/cgroup/memory), whichever holds the
// memory controller. Creating groups needs root. Every group lives in
// benchmark-storage/ right under the controller's mount point, named
// <pid>-<name> after the process that created it.
//
// A parent starts a child in a group:
//
//	g, err := cgroup.Create("pebble", 4<<30)
//	...
//	defer g.Remove()
//	cmd := exec.Command(...)
//	fd, inside := g.FD()
//	if inside {
//		cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
//	}
//	err = cmd.Start()
//	...
//	if !inside {
//		err = g.Add(cmd.Process.Pid)
//	}
//
// On v2 the child then starts inside the group. On v1 it joins when Add
// moves it, and what it allocated before stays charged outside the
// group: Add before the child does real work, for example by having it
// wait for a line on its standard input.
//
// The child finds its group with Self and reads its usage at each step:
// ResetPeak, run the step, Usage. After the child exits, OOMKills tells
// whether the kernel killed it for exceeding the limit, and Remove
// deletes the group. RemoveStale deletes the groups of runs that were
// killed before they could.
//
// Swap: Create caps a group's swap at zero where the kernel accounts
// swap, so that the limit is RAM. On a kernel without swap accounting
// (no memory.memsw files on v1, no memory.swap.max on v2) and with swap
// enabled, a group swaps anonymous memory beyond its limit out instead
// of being killed.
package cgroup
