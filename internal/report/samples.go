package report

// Samples is one figure of one part of one engine over its runs: what
// compare weighs against another report's.
type Samples struct {
	Engine string
	Part   string // the step or benchmark's stable name
	Label  string // as the tables show it
	Metric string // the figure's JSON path (see Figure)
	Unit   string
	Values []float64 // one per run that has the figure
}

// SamplesOf turns the figures of one part in each run into Samples, one
// per number, in the order they first appear.
func SamplesOf(engine, part, label string, runs [][]Figure) []Samples {
	var out []Samples
	index := map[string]int{}
	for _, figs := range runs {
		for _, f := range figs {
			if f.IsText {
				continue
			}
			i, ok := index[f.Metric]
			if !ok {
				i = len(out)
				index[f.Metric] = i
				out = append(out, Samples{Engine: engine, Part: part, Label: label, Metric: f.Metric, Unit: f.Unit})
			}
			out[i].Values = append(out[i].Values, f.Value)
		}
	}
	return out
}
