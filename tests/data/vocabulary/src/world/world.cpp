// A known comparison (KNOWN in check_vocabulary.cmake) is not reported, another one is.
bool known(const std::string& node) { return node == "consumer"; }
bool planted(const std::string& fault) { return fault == "crash"; }
