package mixed

// KindWrite is a writer's batch of points: the operation kind of the
// writers, beside the query kinds of the readers (querymix.QueryKinds). It
// is a stable identifier for JSON and CSV.
const KindWrite = "write"
