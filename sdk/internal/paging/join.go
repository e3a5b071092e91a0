package paging

import "iter"

// Rows iterates over the rows of pages (rows gives a page's); an error
// ends the iteration, yielded with a zero row.
func Rows[P, R any](pages iter.Seq2[*P, error], rows func(*P) *[]R) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		for page, err := range pages {
			if err != nil {
				var zero R
				yield(zero, err)
				return
			}
			for _, r := range *rows(page) {
				if !yield(r, nil) {
					return
				}
			}
		}
	}
}

// Joined gathers the pages of one read into one: the rows of every page
// in order, and the other fields of the last page. Merge, when set, joins
// what a page set aside into the next's.
type Joined[P, R any] struct {
	Rows  func(*P) *[]R
	Merge func(into, from *P)
	last  *P
	rows  []R
}

// Add joins page p to those before it.
func (j *Joined[P, R]) Add(p *P) error {
	j.rows = append(j.rows, *j.Rows(p)...)
	if j.last != nil && j.Merge != nil {
		j.Merge(p, j.last)
	}
	j.last = p
	return nil
}

// Page is the joined page: the last page added (a new one when none was)
// holding every row (an empty list, never nil, when there was none).
func (j *Joined[P, R]) Page() *P {
	last := j.last
	if last == nil { // a read of no pages: only a cap of 0 requests could
		last = new(P)
	}
	rows := j.rows
	if rows == nil {
		rows = []R{}
	}
	*j.Rows(last) = rows
	return last
}
