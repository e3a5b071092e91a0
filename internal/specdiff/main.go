// Command specdiff compares two sets of Mintlify's OpenAPI files, OLD (the
// copies the SDK is tested against, sdk/internal/openapi) and NEW (newer
// ones), and prints what changed in terms a maintainer acts on:
// operations added, removed or moved, request bodies, fields and
// parameters added, removed, retyped or newly required, answers added or
// removed. `make spec-diff` runs it; the weekly workflow
// .github/workflows/spec-drift.yml runs that against the published files.
//
//	go run ./internal/specdiff -calls RECORD OLD NEW
//
// RECORD is what the SDK sends and reads, recorded by the contract test
// (sdk/contract_calls_test.go; `make spec-diff` writes it first): a change
// that breaks one of those calls is marked "breaks", and makes the exit
// status 1. Identical sets print nothing. Exit status 2: a set could not
// be read.
package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"unicode"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("specdiff", flag.ContinueOnError)
	flags.SetOutput(stderr)
	record := flags.String("calls", "", "the record of what the SDK sends and reads (written by the contract test)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if flags.NArg() != 2 || *record == "" {
		fmt.Fprintln(stderr, "usage: specdiff -calls RECORD OLD NEW (two folders of OpenAPI files)")
		return 2
	}
	calls, err := readCalls(*record)
	if err == nil && len(calls) == 0 {
		err = fmt.Errorf("%s names no call of the SDK's", *record)
	}
	if err != nil {
		fmt.Fprintln(stderr, "specdiff:", printable(err.Error()))
		return 2
	}
	var sets [2]map[string]*file
	for i, dir := range flags.Args() {
		if sets[i], err = loadSet(dir); err == nil && len(sets[i]) == 0 {
			err = fmt.Errorf("%s holds no *.json file", dir)
		}
		if err != nil {
			fmt.Fprintln(stderr, "specdiff:", printable(err.Error()))
			return 2
		}
	}
	known := map[string]bool{}
	for _, f := range sets[0] {
		for _, o := range f.ops {
			known[useKey(o)] = true
		}
	}
	for _, key := range slices.Sorted(maps.Keys(calls)) {
		if !known[key] {
			fmt.Fprintln(stderr, printable(fmt.Sprintf("specdiff: the SDK calls %s, which OLD (%s) does not have: changes to it cannot be told", key, flags.Arg(0))))
		}
	}
	if report(stdout, compare(sets[0], sets[1], calls)) > 0 {
		return 1
	}
	return 0
}

// report writes the sections and a last line counting them, and returns
// how many changes break a call the SDK makes. What the files name is
// written printable: a name holding a line break cannot start a line of
// its own (a CI runner's command).
func report(w io.Writer, sections []*section) (breaking int) {
	changes, file := 0, ""
	line := func(format string, args ...any) { fmt.Fprintln(w, printable(fmt.Sprintf(format, args...))) }
	for _, s := range sections {
		if s.file != file {
			if file != "" {
				fmt.Fprintln(w)
			}
			file = s.file
			line("%s", file)
		}
		indent := "  "
		if s.title != "" {
			line("  %s", s.title)
			indent = "    "
		}
		for _, c := range s.changes {
			changes++
			if c.breaks != "" {
				breaking++
				line("%sbreaks  %s: %s", indent, c.what, c.breaks)
			} else {
				line("%s        %s", indent, c.what)
			}
		}
	}
	switch {
	case changes == 0:
	case breaking == 0:
		fmt.Fprintf(w, "\n%d changes; none breaks a call the SDK makes.\n", changes)
	default:
		fmt.Fprintf(w, "\n%d changes; %d break calls the SDK makes.\n", changes, breaking)
	}
	return breaking
}

// printable is s with each character that is not printable (a control
// character, a line break, a bidirectional override) written as \u{...}.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "\\u{%x}", r)
		}
	}
	return b.String()
}
