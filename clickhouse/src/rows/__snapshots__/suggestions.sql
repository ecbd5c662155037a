-- every value of a column
SELECT v, count() AS n FROM (SELECT `c_5780cbab63e0614e` AS v FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND `c_5780cbab63e0614e` != '' LIMIT {sample:UInt64})
  GROUP BY v ORDER BY n DESC, v LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "20000000", read_overflow_mode = "break";
-- params: {"t":"%%","fileIds":["wos"],"h":"Article Title","limit":10,"sample":100000}

-- a title word the index holds whole
SELECT v, count() AS n FROM (SELECT `c_5780cbab63e0614e` AS v FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND `c_5780cbab63e0614e` != '' AND sift_fold_v1(`c_5780cbab63e0614e`) LIKE sift_fold_v1({t:String}) LIMIT {sample:UInt64})
  GROUP BY v ORDER BY n DESC, v LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "20000000", read_overflow_mode = "break";
-- params: {"t":"%snakes%","fileIds":["wos"],"h":"Article Title","limit":10,"sample":100000}

-- single authors of a `;` list
SELECT v, count() AS n FROM (SELECT v FROM (
  SELECT trimBoth(arrayJoin(splitByChar(';', `c_2c00c9aaa72c717a`))) AS v FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND `c_2c00c9aaa72c717a` != '' AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t:String}))
  WHERE v != '' AND sift_fold_v1(v) LIKE sift_fold_v1({t:String}) LIMIT {sample:UInt64})
  GROUP BY v ORDER BY n DESC, v LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "20000000", read_overflow_mode = "break";
-- params: {"t":"%staples%","fileIds":["wos","list"],"h":"Authors","limit":10,"sample":100000}

-- a prefix too short for the index: read twice
SELECT v, count() AS n FROM (SELECT v FROM (
  SELECT trimBoth(arrayJoin(splitByChar(';', `c_2c00c9aaa72c717a`))) AS v FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND `c_2c00c9aaa72c717a` != '' AND `c_2c00c9aaa72c717a` ILIKE {t:String})
  WHERE v != '' AND v ILIKE {t:String} LIMIT {sample:UInt64})
  GROUP BY v ORDER BY n DESC, v LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "20000000", read_overflow_mode = "break";
-- params: {"t":"%mu%","fileIds":["wos"],"h":"Authors","limit":10,"sample":100000}
SELECT v, count() AS n FROM (SELECT v FROM (
  SELECT trimBoth(arrayJoin(splitByChar(';', `c_2c00c9aaa72c717a`))) AS v FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND `c_2c00c9aaa72c717a` != '' AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t:String}))
  WHERE v != '' AND sift_fold_v1(v) LIKE sift_fold_v1({t:String}) LIMIT {sample:UInt64})
  GROUP BY v ORDER BY n DESC, v LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "200000", read_overflow_mode = "break";
-- params: {"t":"%mu%","fileIds":["wos"],"h":"Authors","limit":10,"sample":100000}

-- a typed full name
SELECT v, count() AS n FROM (SELECT v FROM (
  SELECT trimBoth(arrayJoin(splitByChar(';', `c_2c00c9aaa72c717a`))) AS v FROM `sift`.rows PREWHERE file_id IN {fileIds:Array(String)} AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({tf0:String}) WHERE `c_2c00c9aaa72c717a` != '' AND sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t:String}))
  WHERE v != '' AND sift_fold_v1(v) LIKE sift_fold_v1({t:String}) LIMIT {sample:UInt64})
  GROUP BY v ORDER BY n DESC, v LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "20000000", read_overflow_mode = "break";
-- params: {"t":"%kowalski, a%","tf0":"%kowalski%","fileIds":["wos"],"h":"Authors","limit":10,"sample":100000}

-- a column in the overflow map
SELECT v, count() AS n FROM (SELECT extra[{h:String}] AS v FROM `sift`.rows WHERE file_id IN {fileIds:Array(String)} AND extra[{h:String}] != '' AND sift_fold_v1(extra[{h:String}]) LIKE sift_fold_v1({t:String}) LIMIT {sample:UInt64})
  GROUP BY v ORDER BY n DESC, v LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "20000000", read_overflow_mode = "break";
-- params: {"t":"%call%","fileIds":["list"],"h":"Notes","limit":10,"sample":100000}

-- a header no file has
-- (nothing to read)

-- any column
SELECT p.1 AS column, p.2 AS value, count() AS n FROM (
  SELECT arrayJoin([({h0:String}, `c_2c00c9aaa72c717a`), ({h1:String}, `c_5780cbab63e0614e`), ({h2:String}, `c_719ba5025cc6691e`), ({h3:String}, `c_33f2b7511edfe200`)]) AS p FROM `sift`.rows
  WHERE file_id IN {fileIds:Array(String)} AND (sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t:String}) OR sift_fold_v1(`c_5780cbab63e0614e`) LIKE sift_fold_v1({t:String}) OR sift_fold_v1(`c_719ba5025cc6691e`) LIKE sift_fold_v1({t:String}) OR sift_fold_v1(`c_33f2b7511edfe200`) LIKE sift_fold_v1({t:String}))
  LIMIT {sample:UInt64})
  WHERE sift_fold_v1(value) LIKE sift_fold_v1({t:String})
  GROUP BY column, value ORDER BY n DESC, value LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "20000000", read_overflow_mode = "break";
-- params: {"t":"%smith%","fileIds":["wos","list"],"limit":5,"sample":100000,"h0":"Authors","h1":"Article Title","h2":"Publication Year","h3":"Email Addresses"}

-- any column, a short term
SELECT p.1 AS column, p.2 AS value, count() AS n FROM (
  SELECT arrayJoin([({h0:String}, `c_2c00c9aaa72c717a`), ({h1:String}, `c_5780cbab63e0614e`), ({h2:String}, `c_719ba5025cc6691e`)]) AS p FROM `sift`.rows
  WHERE file_id IN {fileIds:Array(String)} AND (`c_2c00c9aaa72c717a` ILIKE {t:String} OR `c_5780cbab63e0614e` ILIKE {t:String} OR `c_719ba5025cc6691e` ILIKE {t:String})
  LIMIT {sample:UInt64})
  WHERE value ILIKE {t:String}
  GROUP BY column, value ORDER BY n DESC, value LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "20000000", read_overflow_mode = "break";
-- params: {"t":"%zy%","fileIds":["wos"],"limit":5,"sample":100000,"h0":"Authors","h1":"Article Title","h2":"Publication Year"}
SELECT p.1 AS column, p.2 AS value, count() AS n FROM (
  SELECT arrayJoin([({h0:String}, `c_2c00c9aaa72c717a`), ({h1:String}, `c_5780cbab63e0614e`), ({h2:String}, `c_719ba5025cc6691e`)]) AS p FROM `sift`.rows
  WHERE file_id IN {fileIds:Array(String)} AND (sift_fold_v1(`c_2c00c9aaa72c717a`) LIKE sift_fold_v1({t:String}) OR sift_fold_v1(`c_5780cbab63e0614e`) LIKE sift_fold_v1({t:String}) OR sift_fold_v1(`c_719ba5025cc6691e`) LIKE sift_fold_v1({t:String}))
  LIMIT {sample:UInt64})
  WHERE sift_fold_v1(value) LIKE sift_fold_v1({t:String})
  GROUP BY column, value ORDER BY n DESC, value LIMIT {limit:UInt64} SETTINGS max_execution_time = 2, timeout_overflow_mode = "break", max_rows_to_read = "200000", read_overflow_mode = "break";
-- params: {"t":"%zy%","fileIds":["wos"],"limit":5,"sample":100000,"h0":"Authors","h1":"Article Title","h2":"Publication Year"}
