// Command mintlify-fake serves the in-memory model of Mintlify's API on
// loopback, for `make demo` and for trying the provider by hand.
//
//	go run ./sdk/mintlifytest/cmd/mintlify-fake -addr 127.0.0.1:0
//
// It prints its URL, the demo API key and the project id, one KEY=value a
// line (also written to -env-file when given), and serves until interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on (loopback)")
	paths := flag.Int("paths", 1200, "number of page paths in the demo project's visitor data")
	jobTime := flag.Duration("job-duration", 3*time.Second, "how long a job stays active before its outcome")
	envFile := flag.String("env-file", "", "also write the KEY=value lines to this file")
	flag.Parse()

	if err := run(*addr, *paths, *jobTime, *envFile); err != nil {
		log.Fatal(err)
	}
}

func run(addr string, paths int, jobTime time.Duration, envFile string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-addr %q: the fake server listens on loopback only", addr)
	}
	srv := mintlifytest.New(mintlifytest.Config{
		DefaultJob: mintlifytest.JobScript{ActiveFor: jobTime, Outcome: mintlifytest.OutcomeCompleted},
		Analytics:  mintlifytest.Dataset{Paths: paths, Seed: 42},
	})
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", addr)
	if err != nil {
		return err
	}
	env := fmt.Sprintf("MINTLIFY_BASE_URL=http://%s\nMINTLIFY_API_KEY=%s\nMINTLIFY_PROJECT_ID=%s\n",
		ln.Addr(), mintlifytest.DemoAPIKey, mintlifytest.DemoProjectID)
	fmt.Print(env)
	if envFile != "" {
		if err := os.WriteFile(envFile, []byte(env), 0o600); err != nil {
			return err
		}
	}
	httpSrv := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = httpSrv.Shutdown(shutdownCtx)
	}()
	if err := httpSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
