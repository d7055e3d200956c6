# Fails when code inside the program compares a value against a string literal
# (`x == "crash"`, `kind != "basic.ack"`) outside the files where text crosses the edge.
# Inside, verdicts, outcomes, trace event kinds, fault sites and actions are enums
# (src/checker/verdict.h, sim/event_kind.h with src/orders/event_kinds.h,
# src/catalog/fault_sites.h, sim/fault_action.h,
# the store's HookOp in src/store/stmt.h); a string compare
# there is how a misspelt name slips through the compiler. Run by ctest:
#   cmake -DROOT=<source tree> -P check_vocabulary.cmake
#
# BOUNDARY files parse or print text (command lines, TOML, JSON, AMQP fields, layout
# files): comparing text is their job. KNOWN lists the remaining comparisons of words that
# are no part of the typed vocabulary (actor names, SQL table names, file extensions), or
# that sit below the layer owning the enum; each is "file|literal" and says why.

cmake_minimum_required(VERSION 3.22)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<dir> -P check_vocabulary.cmake")
endif()

set(BOUNDARY
  "^src/cli/"                      # the command line and its output formats
  "^ui/main\\.cpp$"                # eosim-gui's command line
  "^ui/layout\\.cpp$"              # the panel layout file (key=value)
  "^src/live/amqp_fields\\.cpp$"   # AMQP header tables off the wire
  "^src/live/actor_process\\.cpp$" # a live actor's command line (--role ...)
  "^src/scenario/scenario_load\\.cpp$"  # TOML
  "^src/checker/verdict\\.cpp$"    # the verdict names' parse
  "^src/report/scenario_doc\\.cpp$"     # docs/scenario-format.md from the key table
  "^src/session/recording\\.cpp$"  # JSON Lines of a recorded run
  "^src/live/endpoint\\.cpp$"     # broker URLs
  "^src/live/redis_store\\.cpp$"  # redis:// URL parameters and Redis replies off the wire
  "^src/live/postgres_store\\.cpp$"  # libpq's URL parameters (host, port, sslmode)
  "^src/live/pg_wire\\.cpp$"     # PostgreSQL's messages off the wire (COMMIT, INSERT INTO debits)
  "^src/live/resp_wire\\.cpp$"   # Redis's replies off the wire (+OK)
  "^src/prose/"                    # text for people (lists in Markdown)
)
set(KNOWN
  # The fault proxy names frames as it decodes them off the wire.
  "src/live/net_faults.cpp|basic.deliver" "src/live/net_faults.cpp|basic.publish"
  # Files by extension.
  "src/scenario/scenario.cpp|.toml" "src/live/run_folder.cpp|.jsonl" "ui/app.cpp|.jsonl"
  # A run folder's file names (the separate dedup store's file, absent when Redis holds it).
  "src/live/run_folder.cpp|dedup.db"
  # Actor (node) names and roles: the network's node ids are text (sim/named.h).
  "src/diagram/sequence.cpp|orders" "src/diagram/sequence.cpp|ledger"
  "src/diagram/sequence.cpp|dedup" "src/diagram/sequence.cpp|mail"
  "src/diagram/sequence.cpp|broker" "src/generals/delivery.cpp|broker"
  "src/world/world.cpp|consumer" "src/world/world.cpp|broker" "ui/panel_broker.cpp|broker"
  "ui/panel_generals.cpp|broker"
  # SQL table and column names of the lab schema, shown in the GUI's tables.
  "ui/panel_tables.cpp|outbox" "ui/panel_tables.cpp|sent" "ui/panel_tables.cpp|1"
  "ui/panel_tables.cpp|accounts" "ui/panel_tables.cpp|balance" "ui/panel_tables.cpp|debits"
  "ui/panel_tables.cpp|emails"
  # SQL table and column names: explore's state key feeds the dedup tables' `tick` relative
  # to now (dedup retention reads it), every other tick column is history.
  "src/world/world_state.cpp|tick" "src/world/world_state.cpp|processed_messages"
  "src/world/world_state.cpp|seen"
  # `--fault none` / `--faults none`: the word a user types to clear the file's faults,
  # read where ScenarioOverrides are applied for every front end.
  "src/world/overrides.cpp|none"
)

set(violations 0)
file(GLOB_RECURSE files RELATIVE ${ROOT} ${ROOT}/src/*.h ${ROOT}/src/*.cpp ${ROOT}/sim/*.h
     ${ROOT}/sim/*.cpp ${ROOT}/ui/*.h ${ROOT}/ui/*.cpp)
list(SORT files)
foreach(file IN LISTS files)
  set(boundary FALSE)
  foreach(pattern IN LISTS BOUNDARY)
    if(file MATCHES "${pattern}")
      set(boundary TRUE)
    endif()
  endforeach()
  if(boundary)
    continue()
  endif()
  file(STRINGS ${ROOT}/${file} lines REGEX "[!=]=[ \t]*\"[^\"]*\"")
  foreach(line IN LISTS lines)
    string(REGEX MATCHALL "[!=]=[ \t]*\"[^\"]*\"" compares "${line}")
    foreach(compare IN LISTS compares)
      string(REGEX REPLACE "^[!=]=[ \t]*\"([^\"]*)\"$" "\\1" literal "${compare}")
      if(NOT "${file}|${literal}" IN_LIST KNOWN)
        string(STRIP "${line}" shown)
        message("vocabulary: ${file} compares with \"${literal}\": ${shown}")
        math(EXPR violations "${violations} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "vocabulary: ${violations} comparison(s) with a string literal outside "
                      "the boundary files; compare the enum (verdict.h, event_kind.h, "
                      "fault_sites.h, fault_action.h), or list a boundary in "
                      "cmake/check_vocabulary.cmake")
endif()
