package provider

import (
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func tfjsonPath(name string) tfjsonpath.Path { return tfjsonpath.New(name) }

func knownString(s string) knownvalue.Check { return knownvalue.StringExact(s) }

// wrapped matches the phrases in order in Terraform's output, which wraps
// long diagnostics: any run of spaces in a phrase matches any white space.
func wrapped(phrases ...string) *regexp.Regexp {
	parts := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}
