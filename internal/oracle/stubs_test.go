package oracle_test

func scopeScenarios() []scenario       { return nil }
func scopedValueScenarios() []scenario { return nil }
func localScenarios() []scenario       { return nil }
func ioScenarios() []scenario          { return nil }
