package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A change is one difference, and why it breaks a call the SDK makes
// ("" when it does not).
type change struct{ what, breaks string }

// A section is the changes of one operation, or of a file itself.
type section struct {
	file, title string
	sortKey     string
	changes     []change
}

func (s *section) add(breaks bool, why, format string, args ...any) {
	c := change{what: fmt.Sprintf(format, args...)}
	if breaks {
		c.breaks = why
	}
	s.changes = append(s.changes, c)
}

// compare lists what changed from old to new, file by file, operation by
// operation, judged against what the SDK sends and reads (calls).
func compare(old, newer map[string]*file, calls map[string]*usage) []*section {
	var out []*section
	for _, name := range keys(old, newer) {
		o, n := old[name], newer[name]
		s := &section{file: name}
		switch {
		case n == nil:
			s.add(calledIn(o, calls), "the SDK calls operations of it", "missing from NEW")
		case o == nil:
			s.add(false, "", "a new file")
		case o.server != n.server:
			s.add(calledIn(o, calls) && host(o.server) != host(n.server), "the SDK calls operations of it", "server %s changed to %s", o.server, n.server)
		}
		if len(s.changes) > 0 {
			out = append(out, s)
		}
	}
	pairs, removed, added := match(old, newer)
	for _, p := range pairs {
		if s := compareOp(p[0], p[1], calls[useKey(p[0])]); len(s.changes) > 0 {
			out = append(out, s)
		}
	}
	for _, o := range removed {
		u := calls[useKey(o)]
		s := opSection(o, u)
		s.add(u != nil, "the SDK calls it", "removed")
		out = append(out, s)
	}
	for _, n := range added {
		s := opSection(n, nil)
		s.add(false, "", "added")
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b *section) int { return strings.Compare(a.file+"\x00"+a.sortKey, b.file+"\x00"+b.sortKey) })
	return out
}

// keys are the keys of a and b, sorted.
func keys[V any](a, b map[string]V) []string {
	return union(slices.Collect(maps.Keys(a)), slices.Collect(maps.Keys(b)))
}

func calledIn(f *file, calls map[string]*usage) bool {
	return slices.ContainsFunc(f.ops, func(o *op) bool { return calls[useKey(o)] != nil })
}

// host is a server URL's scheme and host: what the SDK cannot follow.
func host(server string) string {
	scheme, rest, _ := strings.Cut(server, "://")
	h, _, _ := strings.Cut(rest, "/")
	return scheme + "://" + h
}

// match pairs each operation of old with its version in new: the same
// method and path, whatever its path parameters are called (in any file);
// else, moved, the one with its operationId.
func match(old, newer map[string]*file) (pairs [][2]*op, removed, added []*op) {
	var olds, news []*op
	for _, f := range old {
		olds = append(olds, f.ops...)
	}
	for _, f := range newer {
		news = append(news, f.ops...)
	}
	taken := map[*op]bool{}
	find := func(same func(*op) bool) *op {
		var found *op
		for _, n := range news {
			if !taken[n] && same(n) {
				if found != nil {
					return nil // two candidates: neither is surely the one
				}
				found = n
			}
		}
		return found
	}
	var left []*op
	for _, o := range olds {
		if n := find(func(n *op) bool { return n.key() == o.key() && n.file == o.file }); n != nil {
			taken[n] = true
			pairs = append(pairs, [2]*op{o, n})
		} else {
			left = append(left, o)
		}
	}
	ids := map[string]int{}
	for _, o := range left {
		ids[o.id]++
	}
	for _, same := range []func(o, n *op) bool{
		func(o, n *op) bool { return n.key() == o.key() },
		func(o, n *op) bool { return o.id != "" && ids[o.id] == 1 && n.id == o.id },
	} {
		var still []*op
		for _, o := range left {
			if n := find(func(n *op) bool { return same(o, n) }); n != nil {
				taken[n] = true
				pairs = append(pairs, [2]*op{o, n})
			} else {
				still = append(still, o)
			}
		}
		left = still
	}
	for _, n := range news {
		if !taken[n] {
			added = append(added, n)
		}
	}
	return pairs, left, added
}

func opSection(o *op, u *usage) *section {
	s := &section{file: o.file, sortKey: o.full + " " + o.method, title: o.String()}
	var notes []string
	if o.id != "" {
		notes = append(notes, o.id)
	}
	if u != nil {
		notes = append(notes, "the SDK calls it")
	}
	if len(notes) > 0 {
		s.title += "  [" + strings.Join(notes, "; ") + "]"
	}
	return s
}

func compareOp(o, n *op, u *usage) *section {
	s := opSection(o, u)
	called := u != nil
	oldParams, newParams := maps.Clone(o.params), maps.Clone(n.params)
	switch {
	case o.key() != n.key():
		s.add(called, "the SDK calls "+o.String(), "moved to %s", n)
		for _, p := range []map[string]field{oldParams, newParams} {
			maps.DeleteFunc(p, func(k string, _ field) bool { return strings.HasPrefix(k, "path.") })
		}
	default:
		if o.file != n.file {
			s.add(false, "", "now in %s", n.file)
		}
		for i, name := range o.pathParams {
			if to := n.pathParams[i]; to != name {
				s.add(false, "", "path parameter {%s} renamed {%s}", name, to)
				if f, ok := newParams["path."+to]; ok {
					delete(newParams, "path."+to)
					newParams["path."+name] = f
				}
			}
		}
	}
	if o.deprecated != n.deprecated {
		s.add(false, "", "%s", map[bool]string{true: "deprecated", false: "no longer deprecated"}[n.deprecated])
	}
	s.fields(oldParams, newParams, paramTitle, u, func(key string) string { return key })

	switch ob, nb := o.body, n.body; {
	case ob == nil && nb == nil:
	case ob == nil:
		s.add(called && nb.required && !u.sent("body"), "it is required, and the SDK sends none", "request body added%s", map[bool]string{true: " (required)"}[nb.required])
	case nb == nil:
		s.add(u.sent("body"), "the SDK sends one", "request body removed")
		fields := maps.Clone(ob.fields)
		delete(fields, "") // the body itself: said above
		s.fields(fields, nil, bodyTitle, u, bodyName)
	default:
		if ob.media != nb.media {
			s.add(u.sent("body"), "the SDK sends "+ob.media, "request body's media type %s changed to %s", ob.media, nb.media)
		}
		if !ob.required && nb.required {
			s.add(called && !u.always("body"), "the SDK sends none in some calls", "request body now required")
		}
		s.fields(ob.fields, nb.fields, bodyTitle, u, bodyName)
	}

	for _, status := range keys(o.answers, n.answers) {
		if _, ok := o.answers[status]; !ok {
			s.add(false, "", "%s answer added", status)
		} else if _, ok := n.answers[status]; !ok {
			s.add(false, "", "%s answer removed", status)
		}
	}
	// The success answer is what the SDK reads, whatever its status.
	was, now := success(o), success(n)
	switch oa, na := o.answers[was], n.answers[now]; {
	case oa == nil:
	case na == nil: // no success answer: each field the SDK reads is gone
		fields := maps.Clone(oa.fields)
		delete(fields, "") // the answer itself: said above
		s.fields(fields, nil, answerTitle(was+" answer"), u, nil)
	default:
		label := was + " answer"
		if now != was {
			label += " (now " + now + ")"
		}
		if oa.media != na.media && na.media != "" {
			s.add(called, "the SDK reads "+oa.media, "%s's media type %s changed to %s", label, oa.media, na.media)
		}
		s.fields(oa.fields, na.fields, answerTitle(label), u, nil)
	}
	for _, status := range slices.Sorted(maps.Keys(o.answers)) {
		if na := n.answers[status]; na != nil && status != was && status != now {
			s.fields(o.answers[status].fields, na.fields, answerTitle(status+" answer"), nil, nil)
		}
	}
	return s
}

// success is the status of the answer the SDK reads: the first 2xx, else
// "default".
func success(o *op) string {
	for _, status := range slices.Sorted(maps.Keys(o.answers)) {
		if status[0] == '2' {
			return status
		}
	}
	if _, ok := o.answers["default"]; ok {
		return "default"
	}
	return ""
}

func paramTitle(key string) string {
	in, name, _ := strings.Cut(key, ".")
	return in + " parameter " + name
}

func bodyTitle(path string) string {
	if path == "" {
		return "request body"
	}
	return "request field " + path
}

func answerTitle(label string) func(string) string {
	return func(path string) string {
		if path == "" {
			return label
		}
		return label + ": field " + path
	}
}

// bodyName is the record's name of a body field's path: "body.a[].b".
func bodyName(path string) string {
	if path == "" || strings.HasPrefix(path, "[]") {
		return "body" + path
	}
	return "body." + path
}

// fields compares the fields of a request (name gives the record's name of
// each) or, with name nil, of an answer; title names a field in a line,
// u is what the SDK sends and reads in its calls of the operation, nil
// for none.
func (s *section) fields(o, n map[string]field, title func(path string) string, u *usage, name func(string) string) {
	request := name != nil
	for _, path := range keys(o, n) {
		of, inOld := o[path]
		nf, inNew := n[path]
		shown := title(path)
		var sent, always, holderSent, read bool
		if request {
			nm := name(path)
			sent, always, holderSent = u.sent(nm), u.always(nm), u != nil
			if strings.HasPrefix(nm, "body.") || strings.HasPrefix(nm, "body[]") {
				holderSent = u.sent(holder(nm)) // a field of an object the SDK sends
			}
		} else {
			read = u.read(path)
		}
		why := map[bool]string{true: "the SDK sends it", false: "the SDK reads it"}[request]
		switch {
		case !inNew:
			s.add(sent || read, why, "%s removed (%s)", shown, of)
		case !inOld:
			s.add(nf.required && holderSent, "it is required, and the SDK does not send it", "%s added (%s)", shown, nf)
		default:
			if of.typ != nf.typ || of.nullable != nf.nullable {
				breaks := sent && of.typ != nf.typ || read && (of.typ != nf.typ || nf.nullable)
				s.add(breaks, why, "%s retyped: %s changed to %s", shown,
					field{typ: of.typ, nullable: of.nullable}, field{typ: nf.typ, nullable: nf.nullable})
			}
			switch {
			case !of.required && nf.required:
				s.add(holderSent && !always, "the SDK does not send it in every call", "%s now required", shown)
			case of.required && !nf.required:
				s.add(read, "the SDK reads it, and answers may now lack it", "%s no longer required", shown)
			}
			if gone, more := minus(of.enum, nf.enum), minus(nf.enum, of.enum); len(gone)+len(more) > 0 {
				why := "the SDK sends it"
				if read {
					why = "the SDK reads it, and may not know a new value (a status a wait never ends on)"
				}
				var says []string
				if len(gone) > 0 {
					says = append(says, "drops "+strings.Join(gone, ", "))
				}
				if len(more) > 0 {
					says = append(says, "adds "+strings.Join(more, ", "))
				}
				s.add(sent && len(gone) > 0 || read && len(more) > 0, why, "%s: enum %s", shown, strings.Join(says, "; "))
			}
		}
	}
}

// holder is the record's name of what holds a body field: "body.a" for
// "body.a[].b", "body" for "body.a".
func holder(name string) string {
	return strings.TrimSuffix(name[:strings.LastIndex(name, ".")], "[]")
}

func minus(a, b []string) []string {
	return slices.DeleteFunc(slices.Clone(a), func(x string) bool { return slices.Contains(b, x) })
}
