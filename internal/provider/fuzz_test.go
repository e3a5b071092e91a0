package provider

import (
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

func FuzzParseImportID(f *testing.F) {
	for _, s := range []string{"proj/job", "acme docs/β/job-1", "p/q/job", "Acme.Docs_v2~eu:1/job-1", "job", "", "/", "a//b", " /x", "p/ ", "../j", "p/..", "p\x00/j"} {
		f.Add(s, "default")
		f.Add(s, "")
		f.Add(s, "a b")
	}
	f.Fuzz(func(t *testing.T, id, defaultProject string) {
		project, job, err := parseImportID(id, defaultProject)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "import id") || project != "" || job != "" {
				t.Fatalf("error %q (project %q, job %q) does not name the import id", err, project, job)
			}
			return
		}
		// What is accepted is what the SDK would send: ids without a slash.
		if sdk.ValidateProjectID(project) != nil || sdk.ValidateJobID(job) != nil || strings.Contains(project, "/") {
			t.Fatalf("%q -> project %q, job %q", id, project, job)
		}
		if strings.Contains(id, "/") {
			if project+"/"+job != id {
				t.Fatalf("%q -> %q + %q does not rebuild the id", id, project, job)
			}
		} else if job != id || project != defaultProject {
			t.Fatalf("%q with default %q -> %q, %q", id, defaultProject, project, job)
		}
	})
}
