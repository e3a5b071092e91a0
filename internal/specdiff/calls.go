package main

// The record of what the SDK sends and reads, by operation: the contract
// test writes it (sdk/contract_calls_test.go says its lines).

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// usage is what the SDK sends and reads in its calls of one operation.
type usage struct {
	sends map[string]bool // "body", "body.a[].b", "query.take" -> in every call
	reads map[string]bool // "a.b[].c": fields of its success answer
}

func useKey(o *op) string { return o.file + " " + o.method + " " + o.path }

func (u *usage) sent(name string) bool {
	_, ok := u.get(name)
	return ok
}

func (u *usage) always(name string) bool {
	always, _ := u.get(name)
	return always
}

// get says whether the SDK sends name in its calls, and in every one; it
// always fills the path's parameters.
func (u *usage) get(name string) (always, ok bool) {
	if u == nil {
		return false, false
	}
	if strings.HasPrefix(name, "path.") {
		return true, true
	}
	if always, ok = u.sends[name]; ok || !strings.Contains(name, "*") {
		return always, ok
	}
	for sent, every := range u.sends {
		if matches(name, sent) {
			return every, true
		}
	}
	return false, false
}

// read says whether the SDK reads the answer's field at path, or a field
// inside it ("": anything of the answer).
func (u *usage) read(path string) bool {
	if u == nil || path == "" {
		return u != nil && len(u.reads) > 0
	}
	for read := range u.reads {
		if matches(path, read) || matches(path+".*", read) || matches(path+"[]*", read) {
			return true
		}
	}
	return false
}

// matches says whether the record's name holds the field path, where a *
// of path (a map's values) stands for one key of the record's name, and a
// "*" at its end for the rest of it.
func matches(path, name string) bool {
	for {
		head, rest, more := strings.Cut(path, "*")
		if !strings.HasPrefix(name, head) {
			return false
		}
		if !more {
			return name == head
		}
		if rest == "" {
			return true
		}
		name = name[len(head):]
		i := strings.IndexAny(name, ".[")
		if i < 0 {
			return false
		}
		name, path = name[i:], rest
	}
}

// readCalls reads the contract test's record, by operation ("FILE METHOD
// PATH"); see sdk/contract_calls_test.go for its lines.
func readCalls(path string) (map[string]*usage, error) {
	f, err := os.Open(path) //nolint:gosec // a path the developer names
	if err != nil {
		return nil, err
	}
	defer f.Close()
	calls := map[string]*usage{}
	lines := bufio.NewScanner(f)
	for n := 1; lines.Scan(); n++ {
		w := strings.Fields(lines.Text())
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		if len(w) < 3 {
			return nil, fmt.Errorf("%s:%d: want FILE METHOD PATH [sends NAME [always] | reads FIELD]", path, n)
		}
		key := strings.Join(w[:3], " ")
		u := calls[key]
		if u == nil {
			u = &usage{sends: map[string]bool{}, reads: map[string]bool{}}
			calls[key] = u
		}
		switch {
		case len(w) == 3:
		case w[3] == "sends" && len(w) == 5 || w[3] == "sends" && len(w) == 6 && w[5] == "always":
			u.sends[w[4]] = len(w) == 6
		case w[3] == "reads" && len(w) == 5:
			u.reads[w[4]] = true
		default:
			return nil, fmt.Errorf("%s:%d: %q: want FILE METHOD PATH [sends NAME [always] | reads FIELD]", path, n, lines.Text())
		}
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return calls, nil
}
