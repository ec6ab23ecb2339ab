package storage

// LoadJournal returns the data of Inputs: the form the table actors read the input log in before
// Inputs; it goes once they read Inputs.
func (s *Store) LoadJournal(tableID string) ([][]byte, error) {
	in, err := s.Inputs(tableID)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(in))
	for i := range in {
		out[i] = in[i].Data
	}
	return out, nil
}
