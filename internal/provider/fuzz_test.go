package provider

import (
	"strings"
	"testing"
)

func FuzzParseImportID(f *testing.F) {
	for _, s := range []string{"proj/job", "acme docs/β/job-1", "job", "", "/", "a//b", " /x", "p/ "} {
		f.Add(s, "default")
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, id, defaultProject string) {
		project, job, err := parseImportID(id, defaultProject)
		if err != nil {
			if !strings.Contains(err.Error(), "import id") {
				t.Fatalf("error %q does not name the import id", err)
			}
			return
		}
		if strings.TrimSpace(project) == "" || strings.TrimSpace(job) == "" || strings.Contains(job, "/") {
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
