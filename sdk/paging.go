package sdk

// DefaultMaxPagesPerRead caps the requests of one paging read. At the
// largest page size it allows 250,000 unique-visitor rows, far past a real
// site, while a server that never stops saying "there is more" costs at
// most this many of the hourly analytics budget before the read stops.
const DefaultMaxPagesPerRead = 1000
