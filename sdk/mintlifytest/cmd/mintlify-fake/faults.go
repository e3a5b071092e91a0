package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// routeNames are the short names -fault and the control routes take.
var routeNames = map[string][]string{
	"create-job":       {mintlifytest.RouteCreateJob},
	"get-job":          {mintlifytest.RouteGetJob},
	"message":          {mintlifytest.RouteSendMessage},
	"visitors":         {mintlifytest.RouteVisitors},
	"views":            {mintlifytest.RouteViews},
	"searches":         {mintlifytest.RouteSearches},
	"feedback":         {mintlifytest.RouteFeedback},
	"feedback-by-page": {mintlifytest.RouteFeedbackByPage},
	"assistant":        {mintlifytest.RouteAssistant},
	"thread":           {mintlifytest.RouteAssistantThread},
	"caller-stats":     {mintlifytest.RouteCallerStats},
	"jobs":             {mintlifytest.RouteCreateJob, mintlifytest.RouteGetJob, mintlifytest.RouteSendMessage},
	"analytics":        mintlifytest.AnalyticsRoutes,
}

// parseFault reads a fault spec:
//
//	KIND[=VALUE][,route=NAME][,method=GET|POST][,p=PROBABILITY][,requests=N;M...]
//
// KIND is rate-limit (VALUE: the Retry-After, default 1h), server-error
// (VALUE: the status, default 502), drop, or latency (VALUE: the delay).
// Without p or requests, every matching request is hit.
func parseFault(spec string) ([]mintlifytest.Fault, error) {
	parts := strings.Split(spec, ",")
	kind, value, _ := strings.Cut(parts[0], "=")
	f := mintlifytest.Fault{}
	var err error
	switch kind {
	case "rate-limit":
		f.Kind, f.RetryAfter = mintlifytest.FaultRateLimit, time.Hour
		if value != "" {
			f.RetryAfter, err = time.ParseDuration(value)
		}
	case "server-error":
		f.Kind, f.Status = mintlifytest.FaultServerError, http.StatusBadGateway
		if value != "" {
			f.Status, err = strconv.Atoi(value)
			if err == nil && (f.Status < 500 || f.Status > 599) {
				err = fmt.Errorf("%d is not a 5xx status", f.Status)
			}
		}
	case "drop":
		f.Kind = mintlifytest.FaultDropConnection
	case "latency":
		f.Kind = mintlifytest.FaultLatency
		f.Latency, err = time.ParseDuration(value)
	default:
		return nil, fmt.Errorf("fault %q: unknown kind %q (rate-limit, server-error, drop or latency)", spec, kind)
	}
	if err != nil {
		return nil, fmt.Errorf("fault %q: %w", spec, err)
	}
	routes := []string{""}
	for _, opt := range parts[1:] {
		k, v, _ := strings.Cut(opt, "=")
		switch k {
		case "route":
			if routes = routeNames[v]; routes == nil {
				return nil, fmt.Errorf("fault %q: unknown route %q", spec, v)
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
		default:
			return nil, fmt.Errorf("fault %q: unknown option %q (route, method, p or requests)", spec, k)
		}
	}
	out := make([]mintlifytest.Fault, len(routes))
	for i, r := range routes {
		out[i] = f
		out[i].Route = r
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
