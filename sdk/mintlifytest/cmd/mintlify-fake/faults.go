package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakehostile"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// routeNames are the names -fault route=NAME and the control routes take:
// each route's short name, and each area's name for all its routes. They
// come from the fake's route table.
var routeNames, routeList, areaList = namesOfRoutes()

func namesOfRoutes() (names map[string][]string, routes, areas string) {
	names = map[string][]string{}
	var routeNames, areaNames []string
	members := map[string][]string{}
	for _, r := range mintlifytest.Routes() {
		names[r.Name] = []string{r.Pattern}
		routeNames = append(routeNames, r.Name)
		if _, seen := members[r.Area]; !seen {
			areaNames = append(areaNames, r.Area)
		}
		members[r.Area] = append(members[r.Area], r.Name)
		names[r.Area] = append(names[r.Area], r.Pattern)
	}
	var a []string
	for _, area := range areaNames {
		a = append(a, fmt.Sprintf("%s (%s)", area, strings.Join(members[area], ", ")))
	}
	return names, strings.Join(routeNames, ", "), strings.Join(a, "; ")
}

// faultKinds are the kinds -fault takes, each with what its VALUE is.
const faultKinds = "rate-limit, server-error, client-error, malformed, odd-field, drop, reset, stall, latency, slow-stream, " +
	"endless-event, empty-deltas, endless-body, trickle, control-text, unreadable-id or echo-secret"

// parseFault reads a fault spec:
//
//	KIND[=VALUE][,route=NAME][,method=GET|POST][,p=PROBABILITY][,requests=N;M...][,message=TEXT][,body=TEXT]
//
// KIND is rate-limit (VALUE: the Retry-After, default 1h), server-error
// (VALUE: a 5xx status, default 502), client-error (VALUE: a 4xx status,
// default 400; message: its error text), malformed (VALUE: a 2xx status,
// default 200; body: the body, which takes the rest of the spec, commas
// and all), drop, reset, stall, latency or slow-stream (VALUE: the delay),
// or one of the hostile server's: endless-event, empty-deltas and
// endless-body (body: what they repeat or start with), trickle (VALUE:
// the delay between bytes, default 1s), control-text, unreadable-id
// (VALUE: the id, default a/b) or echo-secret (VALUE: the field). Without
// p or requests, every matching request is hit.
func parseFault(spec string) ([]mintlifytest.Fault, error) {
	var body *string
	if head, b, ok := strings.Cut(spec, ",body="); ok {
		spec, body = head, &b
	}
	parts := strings.Split(spec, ",")
	kind, value, _ := strings.Cut(parts[0], "=")
	f := mintlifytest.Fault{}
	var err error
	status := func(def, class int) {
		f.Status = def
		if value != "" {
			f.Status, err = strconv.Atoi(value)
			if err == nil && f.Status/100 != class {
				err = fmt.Errorf("%d is not a %dxx status", f.Status, class)
			}
		}
	}
	noValue := func() {
		if value != "" {
			err = fmt.Errorf("%s takes no value", kind)
		}
	}
	switch kind {
	case "rate-limit":
		f.Kind, f.RetryAfter = mintlifytest.FaultRateLimit, time.Hour
		if value != "" {
			f.RetryAfter, err = time.ParseDuration(value)
		}
	case "server-error":
		f.Kind = mintlifytest.FaultServerError
		status(http.StatusBadGateway, 5)
	case "client-error":
		f.Kind = mintlifytest.FaultClientError
		status(http.StatusBadRequest, 4)
	case "malformed":
		f.Kind = mintlifytest.FaultMalformed
		status(http.StatusOK, 2)
	case "odd-field":
		f.Kind, f.Field = mintlifytest.FaultOddField, value
	case "drop", string(mintlifytest.FaultDropConnection):
		f.Kind = mintlifytest.FaultDropConnection
		noValue()
	case "reset":
		f.Kind = mintlifytest.FaultReset
		noValue()
	case "stall":
		f.Kind = mintlifytest.FaultStall
		noValue()
	case "latency":
		f.Kind = mintlifytest.FaultLatency
		f.Latency, err = time.ParseDuration(value)
	case "slow-stream":
		f.Kind = mintlifytest.FaultSlowStream
		f.Latency, err = time.ParseDuration(value)
	case string(fakehostile.EndlessEvent), string(fakehostile.EmptyDeltas), string(fakehostile.EndlessBody), string(fakehostile.ControlText):
		f.Kind = mintlifytest.FaultKind(kind)
		noValue()
	case string(fakehostile.Trickle):
		f.Kind = fakehostile.Trickle
		if value != "" {
			f.Latency, err = time.ParseDuration(value)
		}
	case string(fakehostile.UnreadableID):
		f.Kind, f.Text = fakehostile.UnreadableID, value
	case string(fakehostile.EchoSecret):
		f.Kind, f.Field = fakehostile.EchoSecret, value
	default:
		return nil, fmt.Errorf("fault %q: unknown kind %q (%s)", spec, kind, faultKinds)
	}
	if err != nil {
		return nil, fmt.Errorf("fault %q: %w", spec, err)
	}
	if body != nil {
		switch f.Kind {
		case mintlifytest.FaultMalformed, fakehostile.EndlessEvent, fakehostile.EmptyDeltas, fakehostile.EndlessBody:
		default:
			return nil, fmt.Errorf("fault %q: only malformed, endless-event, empty-deltas and endless-body take a body", spec)
		}
		f.Body = *body
	}
	routes := []string{""}
	for _, opt := range parts[1:] {
		k, v, _ := strings.Cut(opt, "=")
		switch k {
		case "route":
			if routes = routeNames[v]; routes == nil {
				return nil, fmt.Errorf("fault %q: unknown route %q (a route: %s; or an area: %s)", spec, v, routeList, areaList)
			}
		case "method":
			if v != http.MethodGet && v != http.MethodPost {
				return nil, fmt.Errorf("fault %q: method must be GET or POST", spec)
			}
			f.Method = v
		case "p":
			f.Probability, err = strconv.ParseFloat(v, 64)
			if err != nil || f.Probability <= 0 || f.Probability > 1 {
				return nil, fmt.Errorf("fault %q: p must be a probability above 0, up to 1", spec)
			}
		case "requests":
			for _, n := range strings.Split(v, ";") {
				i, err := strconv.Atoi(n)
				if err != nil || i < 1 {
					return nil, fmt.Errorf("fault %q: requests are positions from 1, such as requests=1;3", spec)
				}
				f.Requests = append(f.Requests, i)
			}
		case "message":
			if f.Kind != mintlifytest.FaultClientError {
				return nil, fmt.Errorf("fault %q: only client-error takes a message", spec)
			}
			f.Message = v
		default:
			return nil, fmt.Errorf("fault %q: unknown option %q (route, method, p, requests, message or body)", spec, k)
		}
	}
	out := make([]mintlifytest.Fault, len(routes))
	for i, r := range routes {
		out[i] = f
		out[i].Route = r
		if fakehostile.Plays(f.Kind) {
			out[i] = fakehostile.Fault(out[i])
		}
	}
	return out, nil
}

// faultFlags collects repeated -fault flags.
type faultFlags []mintlifytest.Fault

func (f *faultFlags) String() string { return fmt.Sprintf("%d faults", len(*f)) }

func (f *faultFlags) Set(spec string) error {
	faults, err := parseFault(spec)
	*f = append(*f, faults...)
	return err
}

// limitFlags collects repeated -limit NAME=N flags.
type limitFlags map[string]int

func (l *limitFlags) String() string { return fmt.Sprintf("%d limits", len(*l)) }

func (l *limitFlags) Set(spec string) error {
	name, value, _ := strings.Cut(spec, "=")
	known := false
	var names []string
	for _, b := range mintlifytest.Budgets() {
		known = known || b.Name == name
		names = append(names, b.Name)
	}
	if !known {
		return fmt.Errorf("-limit %q: no budget %q (%s)", spec, name, strings.Join(names, ", "))
	}
	n, err := strconv.Atoi(value)
	if err != nil || n == 0 || n < -1 {
		return fmt.Errorf("-limit %q: want NAME=N, N a positive limit or -1 for none", spec)
	}
	if *l == nil {
		*l = limitFlags{}
	}
	(*l)[name] = n
	return nil
}
