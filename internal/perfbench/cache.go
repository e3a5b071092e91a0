package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

type cacheResult struct {
	commands, paths                 int
	requestsDefault, requestsOff    int
	pairPaths                       int
	pairDefault, pairOff, pairFloor int
}

// measureCache counts the analytics requests of commands terraform
// commands (plan and apply, in turn) on a configuration reading paths
// rows, with the provider's cache at its default and off; then of one
// plan and one apply on pairPaths rows.
func (b *bench) measureCache(commands, paths, pairPaths int) (*cacheResult, error) {
	r := &cacheResult{commands: commands, paths: paths, pairPaths: pairPaths, pairFloor: (pairPaths + 249) / 250}
	for _, ttl := range []string{"", "0"} { // "": the provider's default
		n, err := b.countRequests(paths, ttl, commands)
		if err != nil {
			return nil, err
		}
		pair, err := b.countRequests(pairPaths, ttl, 2)
		if err != nil {
			return nil, err
		}
		if ttl == "" {
			r.requestsDefault, r.pairDefault = n, pair
		} else {
			r.requestsOff, r.pairOff = n, pair
		}
	}
	return r, nil
}

// countRequests runs commands terraform commands, plan then apply in turn,
// in one directory on a fresh fake and cache, and returns the analytics
// requests they sent.
func (b *bench) countRequests(paths int, ttl string, commands int) (int, error) {
	f, err := startFake(mintlifytest.Config{Analytics: visitorsSource.data(paths), AnalyticsBudget: -1})
	if err != nil {
		return 0, err
	}
	defer f.close()
	b.seq++
	dir := filepath.Join(b.work, fmt.Sprintf("cache-%03d", b.seq))
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(f.providerBlock("")+visitorsSource.config()), 0o600); err != nil {
		return 0, err
	}
	env := []string{"MINTLIFY_BENCH_WRAP_TARGET=" + b.provider, "MINTLIFY_CACHE_TTL=" + ttl, "MINTLIFY_CACHE_DIR=" + filepath.Join(dir, "cache")}
	for i := range commands {
		args := []string{"plan", "-input=false", "-no-color"}
		if i%2 == 1 {
			args = []string{"apply", "-auto-approve", "-input=false", "-no-color"}
		}
		if out, err := b.terraform(dir, env, args...); err != nil {
			return 0, fmt.Errorf("terraform %s in %s: %w\n%s", args[0], dir, err, indent(out))
		}
	}
	return f.Requests(mintlifytest.RouteAnalyticsVisitors), nil
}
