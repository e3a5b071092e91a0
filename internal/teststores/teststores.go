// Package teststores starts, on loopback, the object stores the analytics
// cache's shared bucket (cache_url) is tested against by `make
// test-stores`: an S3 server (versitygw), Azure Blob's emulator (Azurite)
// and a GCS server (fake-gcs-server). Each speaks its store's real
// protocol to the real client libraries gocloud.dev uses, with credentials
// from each store's standard chain (environment variables).
//
// The Makefile builds the servers into .tools/ (pinned versions) and
// names them in MINTLIFY_TEST_VERSITYGW, MINTLIFY_TEST_AZURITE and
// MINTLIFY_TEST_FAKE_GCS_SERVER. Without them a test that needs a store
// skips, unless MINTLIFY_TEST_STORES=1 (as the target sets): then it
// fails.
//
// Where an emulator cannot do what the real store does, a Store says so
// (Limits) and, where the test needs it, a proxy in front of it answers as
// the real store would (ReadOnly for GCS, NoConditionalWrites for S3).
package teststores

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/sas"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Names are the stores, as `make test-stores` prints them.
var Names = []string{"s3", "azure", "gcs"}

// Store is an object store running on loopback for one test.
type Store struct {
	// Name is one of Names; Server names the emulator and its version.
	Name, Server string
	// Limits says what the emulator cannot do that the real store does,
	// and how the tests stand in for it.
	Limits string

	endpoint string         // http://127.0.0.1:PORT (Azure: https)
	dir      string         // scratch space of this store
	pool     *x509.CertPool // trusts the store's certificate (Azure's)
	buckets  atomic.Int64
	// url is the cache_url of a bucket; env is a credential that may
	// read and write, in the store's standard variables; readOnly one
	// that may only read (nil: ReadOnly builds it); none, no credential
	// at all.
	url            func(bucket string) string
	env            func(endpoint string) map[string]string
	readOnly, none map[string]string
	create         func(ctx context.Context, bucket string) error
}

// chainVariables are the variables each store's credential chain reads:
// cleared in every environment a Store gives, so that a developer's own
// credentials never reach a test.
var chainVariables = []string{
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
	"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
	"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
	"AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN", "AZURE_STORAGE_CONNECTION_STRING",
	"AZURE_STORAGEBLOB_CONNECTIONSTRING", "AZURE_STORAGE_DOMAIN", "AZURE_STORAGE_PROTOCOL", "AZURE_STORAGE_IS_LOCAL_EMULATOR",
	"AZURE_STORAGE_IS_CDN", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_TENANT_ID", "AZURE_FEDERATED_TOKEN_FILE",
	"AZURE_CLIENT_CERTIFICATE_PATH", "AZURE_USERNAME", "AZURE_PASSWORD", "IDENTITY_ENDPOINT", "MSI_ENDPOINT",
	"SSL_CERT_FILE", "GOOGLE_APPLICATION_CREDENTIALS", "STORAGE_EMULATOR_HOST", "STORAGE_EMULATOR_HOST_GRPC", "GOOGLE_CLOUD_PROJECT",
}

// isolated is an environment with none of the chains' variables set, a
// home of its own (no ~/.aws, ~/.azure or gcloud configuration) and no
// instance metadata service to ask, plus set.
func (s *Store) isolated(set map[string]string) map[string]string {
	env := map[string]string{}
	for _, k := range chainVariables {
		env[k] = ""
	}
	home := filepath.Join(s.dir, "home")
	env["HOME"] = home
	env["AWS_CONFIG_FILE"] = filepath.Join(home, "aws-config")
	env["AWS_SHARED_CREDENTIALS_FILE"] = filepath.Join(home, "aws-credentials")
	env["AWS_EC2_METADATA_DISABLED"] = "true"
	env["AZURE_CONFIG_DIR"] = filepath.Join(home, "azure")
	env["CLOUDSDK_CONFIG"] = filepath.Join(home, "gcloud")
	env["AZURE_TOKEN_CREDENTIALS"] = "dev" // Entra ID from a developer's tools only: no managed-identity probe of 169.254.169.254
	for k, v := range set {
		env[k] = v
	}
	return env
}

// Env is the environment of a credential that may read and write the
// store's buckets: the variables a user sets for the store's standard
// chain (and where the emulator listens).
func (s *Store) Env() map[string]string { return s.isolated(s.env(s.endpoint)) }

// NoCredentials is the environment with no credential for the store in
// any place its chain looks.
func (s *Store) NoCredentials() map[string]string { return s.isolated(s.none) }

// Setenv sets env for the rest of t (the SDK reads it when a bucket is
// opened).
func Setenv(t *testing.T, env map[string]string) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
}

// Environ is os.Environ() with env set, for a child process.
func Environ(env map[string]string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); env[k] == "" {
			if _, set := env[k]; set {
				continue
			}
		}
		out = append(out, kv)
	}
	for k, v := range env {
		if v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// NewBucket creates a bucket of its own for a test and returns its
// cache_url.
func (s *Store) NewBucket(t *testing.T) string {
	t.Helper()
	name := fmt.Sprintf("mintlify-cache-%d", s.buckets.Add(1))
	if err := s.create(context.Background(), name); err != nil {
		t.Fatalf("%s: creating bucket %s: %v", s.Name, name, err)
	}
	return s.url(name)
}

// MissingBucket is the cache_url of a bucket that does not exist.
func (s *Store) MissingBucket() string { return s.url("no-such-bucket") }

// Start starts the store name on loopback for the rest of t, or skips t
// when its server was not built (fails under MINTLIFY_TEST_STORES=1).
func Start(t *testing.T, name string) *Store {
	t.Helper()
	s := &Store{Name: name, dir: t.TempDir()}
	if err := os.MkdirAll(filepath.Join(s.dir, "home"), 0o700); err != nil {
		t.Fatal(err)
	}
	switch name {
	case "s3":
		s.startS3(t)
	case "azure":
		s.startAzure(t)
	case "gcs":
		s.startGCS(t)
	default:
		t.Fatalf("no store %q (one of %v)", name, Names)
	}
	return s
}

// binary is the server's path from its variable, or skips t.
func binary(t *testing.T, variable, what string) string {
	t.Helper()
	path := os.Getenv(variable)
	if path == "" {
		if os.Getenv("MINTLIFY_TEST_STORES") == "1" {
			t.Fatalf("%s is not set: run make test-stores, which builds %s into .tools/", variable, what)
		}
		t.Skipf("%s is not set: make test-stores builds %s and runs this test", variable, what)
	}
	if _, err := os.Stat(path); err != nil { //nolint:gosec // the server the Makefile built, named by the Makefile
		t.Fatalf("%s=%s: %v", variable, path, err)
	}
	return path
}

// listen listens on a free loopback port.
func listen(t *testing.T) net.Listener {
	t.Helper()
	l, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// freePort is a loopback port nobody listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l := listen(t)
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		t.Fatalf("a TCP listener's address is %T", l.Addr())
	}
	return addr.Port
}

// run starts a server process in the store's directory for the rest of
// t and waits until it accepts connections on port. The process is ended
// by its id when t ends; its output is shown if it fails to start.
func (s *Store) run(t *testing.T, port int, name string, args ...string) {
	t.Helper()
	// Ended (killed, by its process id) when t's context is, just before
	// t's cleanups.
	cmd := exec.CommandContext(t.Context(), name, args...) //nolint:gosec // a server the Makefile built, with the test's own arguments
	cmd.Dir = s.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Env = os.Environ()
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan struct{})
	var waited error
	go func() {
		waited = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() { <-exited })
	deadline := time.Now().Add(90 * time.Second) // a busy 2-core machine starts node slowly
	dialer := &net.Dialer{Timeout: time.Second}
	for {
		conn, err := dialer.DialContext(t.Context(), "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil {
			_ = conn.Close()
			return
		}
		select {
		case <-exited:
			t.Fatalf("%s exited before listening: %v\n%s", filepath.Base(name), waited, out.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill() // its output is read once it has ended
			<-exited
			t.Fatalf("%s is not listening on %d after 90 s:\n%s", filepath.Base(name), port, out.String())
		}
	}
}

// The S3 server: versitygw over a directory, its root account's key
// given as the AWS chain's environment variables, and a second account
// (cache-reader) that a bucket policy lets read but not write.
const (
	s3Access, s3Secret         = "mintlify-test", "mintlify-test-secret" //nolint:gosec // the test server's own account
	s3ReadAccess, s3ReadSecret = "cache-reader", "cache-reader-secret"   //nolint:gosec // the test server's own account
)

func (s *Store) startS3(t *testing.T) {
	gw := binary(t, "MINTLIFY_TEST_VERSITYGW", "versitygw (an S3 server)")
	s.Server = "versitygw " + os.Getenv("MINTLIFY_TEST_VERSITYGW_VERSION")
	s.Limits = "versitygw keeps accounts in a file of its own (IAM users stand for them) and, like S3 since 2024, honors If-None-Match: * on PUT; " +
		"S3-compatible stores that do not are played by a proxy answering 501 NotImplemented, as S3 itself did before"
	data, iam := filepath.Join(s.dir, "data"), filepath.Join(s.dir, "iam")
	for _, d := range []string{data, iam} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	users := fmt.Sprintf(`{"accessAccounts":{%q:{"access":%q,"secret":%q,"role":"user"}}}`, s3ReadAccess, s3ReadAccess, s3ReadSecret)
	if err := os.WriteFile(filepath.Join(iam, "users.json"), []byte(users), 0o600); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	s.run(t, port, gw, "--access", s3Access, "--secret", s3Secret, "--region", "us-east-1",
		"--port", "127.0.0.1:"+strconv.Itoa(port), "--iam-dir", iam, "--quiet", "posix", data)
	s.endpoint = "http://127.0.0.1:" + strconv.Itoa(port)
	// The endpoint is the chain's too (AWS_ENDPOINT_URL_S3): the URL is
	// as a user of real S3 writes it, but for the path style loopback
	// needs.
	s.url = func(bucket string) string { return "s3://" + bucket + "?region=us-east-1&use_path_style=true" }
	s.env = func(endpoint string) map[string]string {
		return map[string]string{"AWS_ACCESS_KEY_ID": s3Access, "AWS_SECRET_ACCESS_KEY": s3Secret, "AWS_ENDPOINT_URL_S3": endpoint}
	}
	s.readOnly = map[string]string{"AWS_ACCESS_KEY_ID": s3ReadAccess, "AWS_SECRET_ACCESS_KEY": s3ReadSecret, "AWS_ENDPOINT_URL_S3": s.endpoint}
	s.none = map[string]string{"AWS_ENDPOINT_URL_S3": s.endpoint}
	client := s3.New(s3.Options{BaseEndpoint: aws.String(s.endpoint), Region: "us-east-1", UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider(s3Access, s3Secret, "")})
	s.create = func(ctx context.Context, bucket string) error {
		if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
			return err
		}
		policy := fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":[%q]},`+
			`"Action":["s3:GetObject","s3:ListBucket"],"Resource":["arn:aws:s3:::%s","arn:aws:s3:::%s/*"]}]}`, s3ReadAccess, bucket, bucket)
		_, err := client.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: aws.String(bucket), Policy: aws.String(policy)})
		return err
	}
}

// Azure Blob: Azurite, with its documented development account given as
// the chain's environment variables; a read-only credential is a SAS
// token allowing reads (and listing) only.
const (
	azureAccount = "devstoreaccount1"
	// azureKey is Azurite's published development key (not a secret).
	azureKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

func (s *Store) startAzure(t *testing.T) {
	azurite := binary(t, "MINTLIFY_TEST_AZURITE", "Azurite (Azure Blob's emulator)")
	s.Server = "Azurite " + os.Getenv("MINTLIFY_TEST_AZURITE_VERSION")
	s.Limits = "Azurite checks shared keys and SAS tokens (their permissions too) but has no Entra ID (managed identities, service principals): " +
		"the chain's key and SAS variables are tested, and with neither the client's own search for an Entra ID token, which finds none here"
	// Over TLS, as Azure is: without a key, Azure's client sends a token
	// only over https, and looks for one only then. Its certificate is
	// trusted through SSL_CERT_FILE, as a corporate CA is.
	_, pool := selfSigned(t, s.dir)
	s.pool = pool
	port := freePort(t)
	s.run(t, port, azurite, "--blobHost", "127.0.0.1", "--blobPort", strconv.Itoa(port), "--inMemoryPersistence",
		"--cert", filepath.Join(s.dir, "cert.pem"), "--key", filepath.Join(s.dir, "key.pem"),
		"--silent", "--skipApiVersionCheck", "--disableProductStyleUrl", "--disableTelemetry")
	s.endpoint = "https://127.0.0.1:" + strconv.Itoa(port)
	where := map[string]string{"AZURE_STORAGE_ACCOUNT": azureAccount, "AZURE_STORAGE_DOMAIN": "127.0.0.1:" + strconv.Itoa(port),
		"AZURE_STORAGE_PROTOCOL": "https", "AZURE_STORAGE_IS_LOCAL_EMULATOR": "true", "SSL_CERT_FILE": filepath.Join(s.dir, "cert.pem")}
	with := func(k, v string) map[string]string {
		env := maps.Clone(where)
		if k != "" {
			env[k] = v
		}
		return env
	}
	s.url = func(bucket string) string { return "azblob://" + bucket }
	s.env = func(endpoint string) map[string]string {
		env := with("AZURE_STORAGE_KEY", azureKey)
		env["AZURE_STORAGE_DOMAIN"] = strings.TrimPrefix(endpoint, "https://")
		return env
	}
	cred, err := azblob.NewSharedKeyCredential(azureAccount, azureKey)
	if err != nil {
		t.Fatal(err)
	}
	token, err := sas.AccountSignatureValues{
		Protocol:      sas.ProtocolHTTPS,
		ExpiryTime:    time.Now().Add(24 * time.Hour),
		Permissions:   (&sas.AccountPermissions{Read: true, List: true}).String(),
		ResourceTypes: (&sas.AccountResourceTypes{Container: true, Object: true}).String(),
	}.SignWithSharedKey(cred)
	if err != nil {
		t.Fatal(err)
	}
	s.readOnly = with("AZURE_STORAGE_SAS_TOKEN", token.Encode())
	s.none = with("", "")
	transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}
	client, err := azblob.NewClientWithSharedKeyCredential(s.endpoint+"/"+azureAccount, cred, &azblob.ClientOptions{ClientOptions: policy.ClientOptions{
		Transport: &http.Client{Transport: transport}, Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	s.create = func(ctx context.Context, bucket string) error {
		_, err := client.CreateContainer(ctx, bucket, nil)
		return err
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key (cert.pem,
// key.pem) into dir, and returns it and a pool that trusts it.
func selfSigned(t *testing.T, dir string) (*x509.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	for name, block := range map[string]*pem.Block{"cert.pem": {Type: "CERTIFICATE", Bytes: der}, "key.pem": {Type: "PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return cert, pool
}

// GCS: fake-gcs-server, reached as the Go client reaches any emulator
// (STORAGE_EMULATOR_HOST). It checks no credential at all: a read-only
// one is played by a proxy answering writes as GCS answers a service
// account without storage.objects.create (403), and no credential at all
// is GCS's client finding none where it looks (never the emulator).
func (s *Store) startGCS(t *testing.T) {
	server := binary(t, "MINTLIFY_TEST_FAKE_GCS_SERVER", "fake-gcs-server (a GCS server)")
	s.Server = "fake-gcs-server " + os.Getenv("MINTLIFY_TEST_FAKE_GCS_SERVER_VERSION")
	s.Limits = "fake-gcs-server checks no credentials and has no IAM, and Google's client sends none to an emulator: a read-only service account is played by a proxy " +
		"answering writes with GCS's 403, and of the credential chain only its finding nothing is tested (it fails before sending, as against GCS)"
	port := freePort(t)
	s.run(t, port, server, "-scheme", "http", "-host", "127.0.0.1", "-port", strconv.Itoa(port), "-backend", "memory",
		"-public-host", "127.0.0.1:"+strconv.Itoa(port), "-log-level", "error")
	s.endpoint = "http://127.0.0.1:" + strconv.Itoa(port)
	s.url = func(bucket string) string { return "gs://" + bucket }
	s.env = func(endpoint string) map[string]string {
		return map[string]string{"STORAGE_EMULATOR_HOST": strings.TrimPrefix(endpoint, "http://")}
	}
	s.none = map[string]string{}
	s.create = func(ctx context.Context, bucket string) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.endpoint+"/storage/v1/b?project=test",
			strings.NewReader(fmt.Sprintf(`{"name":%q}`, bucket)))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			answer, _ := io.ReadAll(resp.Body)
			return fmt.Errorf("%s: %s", resp.Status, answer)
		}
		return nil
	}
}

// ReadOnly is the environment of a credential that may read the store's
// buckets but not write them: an account or token the store itself
// limits (S3, Azure), or (GCS, whose emulator has no IAM) a proxy in front
// of the emulator answering every write as GCS answers a service account
// that lacks storage.objects.create.
func (s *Store) ReadOnly(t *testing.T) map[string]string {
	t.Helper()
	if s.readOnly != nil {
		return s.isolated(s.readOnly)
	}
	const denied = `{"error":{"code":403,"message":"cache-reader@project.iam.gserviceaccount.com does not have storage.objects.create access to the Google Cloud Storage object. Permission 'storage.objects.create' denied on resource (or it may not exist).","errors":[{"message":"cache-reader@project.iam.gserviceaccount.com does not have storage.objects.create access to the Google Cloud Storage object. Permission 'storage.objects.create' denied on resource (or it may not exist).","domain":"global","reason":"forbidden"}]}}`
	proxy := s.proxy(t, func(r *http.Request) (int, string, bool) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			return 0, "", false
		}
		return http.StatusForbidden, denied, true
	})
	return s.isolated(s.env(proxy))
}

// NoConditionalWrites is the environment of a store that refuses
// conditional writes: S3-compatible stores that do not implement
// If-None-Match on PUT answer 501 NotImplemented, as S3 did until 2024
// (GCS and Azure have always had them: ok is false).
func (s *Store) NoConditionalWrites(t *testing.T) (env map[string]string, ok bool) {
	t.Helper()
	if s.Name != "s3" {
		return nil, false
	}
	const refused = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NotImplemented</Code><Message>A header you provided implies functionality that is not implemented</Message><Header>If-None-Match</Header><RequestId>0</RequestId></Error>`
	proxy := s.proxy(t, func(r *http.Request) (int, string, bool) {
		if r.Method == http.MethodPut && r.Header.Get("If-None-Match") != "" {
			return http.StatusNotImplemented, refused, true
		}
		return 0, "", false
	})
	return s.isolated(s.env(proxy)), true
}

// proxy serves the store through a reverse proxy on loopback whose answer
// is refuse's where it says so, and returns its endpoint.
func (s *Store) proxy(t *testing.T, refuse func(*http.Request) (status int, body string, refused bool)) string {
	t.Helper()
	target, err := url.Parse(s.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		if s.Name != "gcs" {
			// An S3 request's host is in its signature; fake-gcs-server
			// tells path-style requests from others by theirs.
			r.Out.Host = r.In.Host
		}
	}}
	if s.pool != nil {
		rp.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: s.pool, MinVersion: tls.VersionTLS12}}
	}
	l := listen(t)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status, body, refused := refuse(r); refused {
			_, _ = io.Copy(io.Discard, r.Body)
			if strings.HasPrefix(body, "<") {
				w.Header().Set("Content-Type", "application/xml")
			} else {
				w.Header().Set("Content-Type", "application/json")
			}
			w.WriteHeader(status)
			_, _ = io.WriteString(w, body)
			return
		}
		rp.ServeHTTP(w, r)
	})}
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { _ = srv.Close() }) })
	if s.pool != nil {
		// Azure's client sends its key over https only, as to Azure:
		// the proxy serves the store's own certificate.
		go func() { _ = srv.ServeTLS(l, filepath.Join(s.dir, "cert.pem"), filepath.Join(s.dir, "key.pem")) }()
		return "https://" + l.Addr().String()
	}
	go func() { _ = srv.Serve(l) }()
	return "http://" + l.Addr().String()
}

// Misbehavior is how a proxy in front of a store answers (Misbehaving):
// as a store that is slow, or slow to show what was written or removed.
type Misbehavior struct {
	// Delay holds up every request this long before it is sent on (or
	// until the client gives up on it).
	Delay time.Duration
	// HideLeases answers a read of a lease (an object named lease-...)
	// 404 Not Found, as if it were not there: every read, or (FirstOnly)
	// the first of each lease object, as a store slow to show a write.
	HideLeases, FirstOnly bool
	// KeepLeases answers the removal of a lease as done, and keeps it: a
	// store slow to show a delete, or another user of the bucket writing
	// the name again at once.
	KeepLeases bool
}

// Misbehaving is the environment of a credential that may read and write
// the store's buckets through a proxy that answers as m says, and the
// count of requests the proxy was sent.
func (s *Store) Misbehaving(t *testing.T, m Misbehavior) (map[string]string, *atomic.Int64) {
	t.Helper()
	var sent atomic.Int64
	var mu sync.Mutex
	hidden := map[string]bool{}
	notFound := map[string]string{
		"s3":    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>`,
		"azure": `<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code><Message>The specified blob does not exist.</Message></Error>`,
		"gcs":   `{"error":{"code":404,"message":"No such object","errors":[{"message":"No such object","domain":"global","reason":"notFound"}]}}`,
	}[s.Name]
	removed := map[string]int{"s3": http.StatusNoContent, "azure": http.StatusAccepted, "gcs": http.StatusNoContent}[s.Name]
	proxy := s.proxy(t, func(r *http.Request) (int, string, bool) {
		sent.Add(1)
		if m.Delay > 0 {
			select {
			case <-time.After(m.Delay):
			case <-r.Context().Done():
				return http.StatusServiceUnavailable, "", true
			}
		}
		lease := strings.Contains(r.URL.Path, "/lease-")
		switch {
		case lease && m.HideLeases && r.Method == http.MethodGet:
			mu.Lock()
			first := !hidden[r.URL.Path]
			hidden[r.URL.Path] = true
			mu.Unlock()
			if first || !m.FirstOnly {
				return http.StatusNotFound, notFound, true
			}
		case lease && m.KeepLeases && r.Method == http.MethodDelete:
			return removed, "", true
		}
		return 0, "", false
	})
	return s.isolated(s.env(proxy)), &sent
}
