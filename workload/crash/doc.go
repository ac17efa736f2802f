// Package crash checks what an engine keeps when its process is killed:
// the crash check of benchmark-storage -workload crash.
//
// A writer process commits numbered batches (Write) and reports each
// acknowledgement, that is each Commit that returned, to the process that
// started it, which kills it with SIGKILL at a seeded random moment
// (Config.KillDelay). A fresh process then reopens the store, runs the
// engine's own integrity check where it has one (engine.Check), and reads
// every entry back (Verify). Tally adds the rounds up: every acknowledged
// batch must be wholly present (else it is lost), and no batch may be
// partly present (else it is torn). Batches are committed one after
// another, so a batch below the highest one found counts as acknowledged
// even when its acknowledgement was cut off by the kill.
//
// A writer can also report its memory by kind as it goes (Writer.Memory:
// private memory, the Go runtime's part of it, mapped file pages, shared
// memory, sampled after its commits), since it cannot at its end: the
// process that kills it passes the last report on in Round.Memory, and
// Stats.WriterMemory keeps each kind's highest peak over the rounds.
//
// Batch b holds Config.Batch entries; entry i's key is b and i as
// big-endian uint64 and uint32, and its value (Config.ValueSize bytes)
// starts with the key and continues with bytes derived from the seed, so
// that a value in the wrong place, or a stale one, is found.
//
// What a process kill cannot show: the operating system survives it, so
// whatever the engine handed to the OS (written but not synced) is kept.
// A machine crash or power loss also drops the page cache; only writes
// the engine synced survive that (sync "none" promises nothing there,
// sync "batch" promises everything). Config.Fault FaultPowercut checks
// that: the writer's data directory is a file system that drops what was
// not synced when the power is cut under it (Config.CutAt), and losses
// under sync "none" are counted without failing (Stats.LossAllowed).
//
// # On the command line
//
// The package registers itself as the workload crash of package
// workload/suite, whose engines run under sync batch unless -sync says
// otherwise. Its settings are a Config: its own flags, -kills and -fault,
// set it; -batch (100 unless given) and -seed are the command's, copied in
// once when the check is configured. The engine's process runs
// the rounds, starting the writer and reader processes in roles of the
// workload's own (suite.Roles) and, for a power cut, mounting the
// powercut file system under them.
package crash
