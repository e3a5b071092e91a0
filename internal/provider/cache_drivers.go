package provider

// The object stores cache_url may name: gocloud.dev/blob's drivers, each
// with its store's standard credential chain. file:// needs none: package
// cachebucket reads and writes those directories itself.
import (
	_ "gocloud.dev/blob/azureblob" // azblob://
	_ "gocloud.dev/blob/gcsblob"   // gs://
	_ "gocloud.dev/blob/s3blob"    // s3://
)
