package sdk

import "encoding/json"

// The answer types whose UnmarshalJSON reads the API's shape restore the
// copy the analytics cache keeps (their Go shape) through a type of the
// same fields without that method.

func (t *AssistantThread) restoreCached(data []byte) error {
	type plain AssistantThread
	return json.Unmarshal(data, (*plain)(t))
}

func (s *CallerStats) restoreCached(data []byte) error {
	type plain CallerStats
	return json.Unmarshal(data, (*plain)(s))
}

func (fb *FeedbackByPage) restoreCached(data []byte) error {
	type plain FeedbackByPage
	return json.Unmarshal(data, (*plain)(fb))
}
