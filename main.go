// Command terraform-provider-mintlify serves the Mintlify Terraform provider.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider"
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version = "dev"

func main() {
	var debug, showVersion bool
	flag.BoolVar(&debug, "debug", false, "run with support for debuggers like delve")
	flag.BoolVar(&showVersion, "version", false, "print the version and exit")
	flag.Parse()
	if showVersion {
		fmt.Println("terraform-provider-mintlify", version)
		return
	}
	if debug {
		log.Printf("terraform-provider-mintlify %s starting in debug mode", version)
	}
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/mintlify/mintlify",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}
