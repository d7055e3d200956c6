// Fault actions are typed (sim/fault_action.h): the network compares FaultAction values,
// so an action word compared as text is reported here like any other.
bool fine(FaultAction fault) { return fault == FaultAction::kDrop; }
bool planted(const std::string& fault) { return fault == "drop"; }
