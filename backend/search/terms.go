package search

import "sync"

// termShardCount is how many parts the table of terms entered since the load is cut
// into: enough that a note's analysis looking its terms up rarely meets the merge
// entering one.
const termShardCount = 64

// termTable maps the terms entered since the index was loaded to their ids. It has
// locks of its own, by part, so that the notes being analysed look their terms up
// while the merge enters other notes (which once held the index's lock against every
// analysis: on a vault of many distinct words, the merge waited for the lock longer
// than it worked).
type termTable struct {
	shards [termShardCount]termShard
}

type termShard struct {
	mu sync.RWMutex
	m  map[string]uint32
	_  [40]byte // one shard per cache line: the merge writes one while analyses read another
}

// newTermTable returns an empty table; a part's map is made by its first term (a
// loaded index enters none until a note changes).
func newTermTable() *termTable { return &termTable{} }

// shardOf picks a term's part from its length and its first and last bytes: cheap,
// and spread enough for the locks (the maps hash the whole term).
func shardOf(t string) int {
	if t == "" {
		return 0
	}
	h := uint32(len(t))*0x9e3779b1 ^ uint32(t[0])*0x85ebca6b ^ uint32(t[len(t)-1])*0xc2b2ae35
	if len(t) > 2 {
		h ^= uint32(t[len(t)/2]) * 0x27d4eb2f
	}
	return int(h>>26) & (termShardCount - 1)
}

// get returns the id of term t.
func (tt *termTable) get(t string) (uint32, bool) {
	s := &tt.shards[shardOf(t)]
	s.mu.RLock()
	id, ok := s.m[t]
	s.mu.RUnlock()
	return id, ok
}

// put enters term t with id.
func (tt *termTable) put(t string, id uint32) {
	s := &tt.shards[shardOf(t)]
	s.mu.Lock()
	if s.m == nil {
		s.m = map[string]uint32{}
	}
	s.m[t] = id
	s.mu.Unlock()
}

// len is how many terms the table holds.
func (tt *termTable) len() int {
	n := 0
	for i := range tt.shards {
		s := &tt.shards[i]
		s.mu.RLock()
		n += len(s.m)
		s.mu.RUnlock()
	}
	return n
}

// getMany sets ids[i] to the id of terms[i].term for the terms the table holds,
// leaving the others as they are; it takes each part's lock once.
func (tt *termTable) getMany(terms []termFreq, ids []uint32) {
	// The terms' indexes grouped by part (a counting sort).
	var start [termShardCount + 1]int32
	shard := make([]uint8, len(terms))
	for i, t := range terms {
		s := shardOf(t.term)
		shard[i] = uint8(s)
		start[s+1]++
	}
	for s := range termShardCount {
		start[s+1] += start[s]
	}
	order := make([]int32, len(terms))
	next := start
	for i := range terms {
		s := shard[i]
		order[next[s]] = int32(i)
		next[s]++
	}
	for s := range termShardCount {
		lo, hi := start[s], start[s+1]
		if lo == hi {
			continue
		}
		sh := &tt.shards[s]
		sh.mu.RLock()
		for _, i := range order[lo:hi] {
			if id, ok := sh.m[terms[i].term]; ok {
				ids[i] = id
			}
		}
		sh.mu.RUnlock()
	}
}
