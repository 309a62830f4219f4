"""rocprofv3's outputs: kernel_stats CSV, *_results.json and the rocpd SQLite database (schema 3,
tests/fixtures/rocpd/make_rocpd.py's columns)."""
import os
import sqlite3

from structured_seeds.common import DEEP, REPEATED, RUN, U64_MAX, dumps


STATS_HEADER = ('"Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs",'
                '"StdDev"\n')
TRACE_HEADER = ('"Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Dispatch_Id","Kernel_Id",'
                '"Kernel_Name","Correlation_Id","Start_Timestamp","End_Timestamp"\n')


def trace_row(name, start, end, ending="\n"):
    return f'"KERNEL_DISPATCH",1,1,0,42,0,0,{name},0,{start},{end}{ending}'


def rocprof_csv_seeds():
    yield "repeated_kernel_stats.csv", STATS_HEADER + '"k",1,10,10,1,10,10,0\n' * REPEATED
    yield "distinct_kernel_stats.csv", STATS_HEADER + "".join(
        f'"k{i}",1,10,10,1,10,10,0\n' for i in range(REPEATED))
    yield "calls_u64_max_kernel_stats.csv", STATS_HEADER + f'"k",{U64_MAX},10,10,1,10,10,0\n'
    yield "calls_sum_kernel_stats.csv", STATS_HEADER + f'"k",{2**63 - 1},1,1,1,1,1,0\n"k",1,1,1,1,1,1,0\n'
    yield "time_overflow_kernel_stats.csv", STATS_HEADER + '"k",1,1e308,1,1,1,1,0\n' * 3
    yield "long_field_kernel_stats.csv", STATS_HEADER + '"' + "a" * RUN + '",1,1,1,1,1,1,0\n'
    yield "run_of_commas_kernel_stats.csv", STATS_HEADER + "," * RUN + "\n"
    # Kernel traces whose rows the scanner reads from its block masks (quotes only around whole
    # fields), with the rows that break that reading among them: a lone quote, a doubled quote,
    # bytes after a closing quote, a quoted line break, CR and CRLF endings.
    plain = "".join(trace_row(f'"k{i % 7}"', i, i + 5, ("\n", "\r\n", "\r")[i % 3])
                    for i in range(REPEATED))
    yield "plain_rows_kernel_trace.csv", TRACE_HEADER + plain
    yield "irregular_rows_kernel_trace.csv", TRACE_HEADER + "".join(
        trace_row(name, 1, 2) + plain[:2000]
        for name in ('a"b', '"x""y"', '"q"stray', '"line\nbreak"', '"open'))
    # For the read in parts (captures/csv_parts.hpp; the target cuts every few bytes): kernel names
    # holding line breaks in every row, so most cuts land inside quotes, and one quoted run of
    # line breaks longer than any part.
    yield "quoted_line_breaks_kernel_trace.csv", TRACE_HEADER + "".join(
        trace_row(f'"k\n{i % 5}\r\n"', i, i + 1) for i in range(REPEATED))
    yield "long_quoted_run_kernel_trace.csv", TRACE_HEADER + trace_row(
        '"' + "a\n" * (RUN // 2) + '"', 1, 2) + plain[:2000]


def rocprof_json_seeds():
    yield "deep_results.json", '{"rocprofiler-sdk-tool":' + "[" * DEEP + "]" * DEEP + "}"
    dispatch = {"dispatch_info": {"kernel_id": 1}, "start_timestamp": 1, "end_timestamp": 2}
    yield "repeated_results.json", dumps({"rocprofiler-sdk-tool": [{
        "kernel_symbols": [{"kernel_id": 1, "kernel_name": "k"}],
        "buffer_records": {"kernel_dispatch": [dispatch] * REPEATED}}]})
    yield "number_edges_results.json", ('{"rocprofiler-sdk-tool":[{"buffer_records":'
                                        '{"kernel_dispatch":[{"start_timestamp":1e400,'
                                        f'"end_timestamp":{U64_MAX}}}]}}}}]}}')
    yield "many_values_results.json", "[" + ",".join(["0"] * (5 * REPEATED)) + "]"


def rocpd_database(path, dispatch_view=None, metadata_view=None, symbols=None, dispatches=None,
                   symbol_view=None):
    """A schema-3 rocpd database, direct layout (tests/fixtures/rocpd/make_rocpd.py's columns),
    with any of its views replaced by a hostile one."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE meta (id INTEGER PRIMARY KEY, tag TEXT, value TEXT);"
        "INSERT INTO meta (tag, value) VALUES ('schema_version', '3');"
        "CREATE TABLE rocpd_info_agent (id INTEGER PRIMARY KEY, guid TEXT, type TEXT, "
        "absolute_index INTEGER, type_index INTEGER, name TEXT, generic_name TEXT, "
        "product_name TEXT);"
        "INSERT INTO rocpd_info_agent VALUES (1, 'g', 'GPU', 0, 0, 'a', 'gfx942', 'MI300X');"
        "CREATE TABLE symbols (id INTEGER PRIMARY KEY, guid TEXT, kernel_name TEXT, "
        "display_name TEXT);"
        "CREATE TABLE dispatch (id INTEGER PRIMARY KEY, guid TEXT, agent_id INTEGER, "
        "kernel_id INTEGER, start BIGINT, \"end\" BIGINT);")
    db.executemany("INSERT INTO symbols VALUES (?, 'g', ?, ?)",
                   symbols or [(1, "k.kd", "k"), (2, "j.kd", "")])
    db.executemany("INSERT INTO dispatch (guid, agent_id, kernel_id, start, \"end\") "
                   "VALUES ('g', 1, ?, ?, ?)", dispatches or [(1, 100, 110), (2, 200, 230)])
    db.execute("CREATE VIEW rocpd_metadata AS " + (metadata_view or "SELECT * FROM meta"))
    db.execute("CREATE VIEW rocpd_info_kernel_symbol AS " + (symbol_view or "SELECT * FROM symbols"))
    db.execute("CREATE VIEW rocpd_kernel_dispatch AS " + (dispatch_view or "SELECT * FROM dispatch"))
    db.commit()
    db.close()


ENDLESS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "


def rocpd_seeds(outdir):
    cases = {
        "plain": {},
        "endless_dispatch": {"dispatch_view": ENDLESS + "SELECT i AS id, 'g' AS guid, 1 AS "
                             "agent_id, 1 + i % 2 AS kernel_id, i AS start, i + 5 AS \"end\" "
                             "FROM n"},
        "endless_distinct_kernels": {"dispatch_view": ENDLESS + "SELECT i AS id, 'g' AS guid, 1 "
                                     "AS agent_id, i AS kernel_id, i AS start, i + 1 AS \"end\" "
                                     "FROM n", "symbols": [(1, "k.kd", "k")]},
        "endless_metadata": {"metadata_view": ENDLESS + "SELECT i AS id, 'schema_version' AS "
                             "tag, '3' AS value FROM n"},
        "repeated_dispatches": {"dispatch_view": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                                f"SELECT i + 1 FROM n WHERE i < {REPEATED}) SELECT i AS id, 'g' "
                                "AS guid, 1 AS agent_id, 1 AS kernel_id, i AS start, i + 3 AS "
                                "\"end\" FROM n"},
        "null_and_text_times": {"dispatch_view": "SELECT id, guid, agent_id, kernel_id, CASE id "
                                "WHEN 1 THEN NULL WHEN 2 THEN 'soon' ELSE start END AS start, "
                                "\"end\" FROM dispatch"},
        "end_before_start": {"dispatches": [(1, 500, 100), (2, 1, 2)]},
        # Every group has bad dispatches, without end: the counts kept apart by group key grow
        # with the groups until rocpd_max_groups (or the budget) ends the read.
        "endless_bad_groups": {"dispatch_view": ENDLESS + "SELECT i AS id, 'g' AS guid, 1 + i % 3 "
                               "AS agent_id, i AS kernel_id, i + 9 AS start, i AS \"end\" FROM n",
                               "symbols": [(1, "k.kd", "k")]},
        "null_names": {"symbols": [(1, None, None), (2, None, None)]},
        # Symbol rows that never name a dispatched kernel, without end (rocpd_max_groups rows),
        # and names past the fuzz target's rocpd_max_name_bytes (1 MiB).
        "endless_symbols": {"symbol_view": ENDLESS + "SELECT i + 2 AS id, 'g' AS guid, 'x' AS "
                            "kernel_name, 'x' AS display_name FROM n"},
        "long_names": {"symbols": [(1, "k" * RUN, ""), (2, "j" * RUN, "")]},
        "sum_overflow": {"dispatches": [(1, 0, 2**62), (1, 0, 2**62), (1, 0, 2**62)]},
    }
    for name, spec in cases.items():
        path = os.path.join(outdir, f"{name}_results.db")
        rocpd_database(path, **spec)
        yield path
