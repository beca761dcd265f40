#include "listplans.h"

#include "benchcommon.h"

#include <hiredis.h>

#include <cstring>

namespace LockScope::Bench {

namespace {
// The scanner's test of a Redisson-shaped page, in Lua: every field an owner ("<id>:<thread>") or "mode".
const char *const kScript = R"(
local page = redis.call('SCAN', ARGV[1], 'COUNT', ARGV[2])
local out = {}
for _, key in ipairs(page[2]) do
  if redis.call('TYPE', key)['ok'] == 'hash' then
    local fields = redis.call('HSCAN', key, '0', 'COUNT', '64')[2]
    local shaped = #fields > 0
    for i = 1, #fields, 2 do
      if fields[i] ~= 'mode' and not string.find(fields[i], ':', 1, true) then shaped = false break end
    end
    if shaped then
      out[#out + 1] = key
      out[#out + 1] = redis.call('PTTL', key)
      out[#out + 1] = fields
    end
  end
end
return { page[1], out }
)";

QByteArray text(const redisReply *r)
{
    return QByteArray(r->str, qsizetype(r->len));
}

RawReply checked(RawPipe &raw, std::initializer_list<QByteArrayView> argv)
{
    QString error;
    RawReply r = raw.command(argv, &error);
    if (!r || isErrorReply(r.get()))
        fatal(QStringLiteral("%1: %2").arg(
            QString::fromUtf8(argv.begin()->toByteArray()), r ? QString::fromUtf8(replyText(r.get())) : error));
    return r;
}

// Average and maximum duration of the SLOWLOG entries of one command.
void slowlogFigures(RawPipe &raw, const char *command, double *avg, double *max)
{
    RawReply log = checked(raw, { "SLOWLOG", "GET", "-1" });
    double sum = 0;
    qint64 n = 0;
    *max = 0;
    for (size_t i = 0; i < log->elements; ++i) {
        const redisReply *entry = log->element[i];
        if (entry->elements < 4 || entry->element[3]->elements == 0)
            continue;
        if (strcasecmp(entry->element[3]->element[0]->str, command) != 0)
            continue;
        const double us = double(entry->element[2]->integer);
        sum += us;
        *max = qMax(*max, us);
        ++n;
    }
    *avg = n > 0 ? sum / double(n) : 0;
}
} // namespace

PlanRun typedWalk(RawPipe &raw)
{
    PlanRun run;
    QString error;
    const double cpu0 = serverCpuMs(raw);
    const qint64 start = nowNs();
    QByteArray cursor = "0";
    std::vector<QByteArray> keys;
    std::vector<char> isHash;
    do {
        RawReply scan = checked(raw, { "SCAN", cursor, "COUNT", "1000" });
        cursor = text(scan->element[0]);
        ++run.calls;
        keys.clear();
        for (size_t i = 0; i < scan->element[1]->elements; ++i)
            keys.push_back(text(scan->element[1]->element[i]));
        for (const QByteArray &key : keys)
            raw.append({ "TYPE", key });
        isHash.assign(keys.size(), 0);
        for (size_t i = 0; i < keys.size(); ++i) {
            RawReply type = raw.next(&error);
            if (!type)
                fatal(error);
            isHash[i] = type->type == REDIS_REPLY_STATUS && std::strcmp(type->str, "hash") == 0;
        }
        qint64 pages = 0;
        for (size_t i = 0; i < keys.size(); ++i) {
            if (isHash[i]) {
                raw.append({ "HSCAN", keys[i], "0", "COUNT", "64" });
                ++pages;
            }
        }
        for (qint64 i = 0; i < pages; ++i)
            if (!raw.next(&error))
                fatal(error);
        run.candidates += pages;
    } while (cursor != "0");
    run.wallMs = double(nowNs() - start) / 1e6;
    run.serverCpuMs = serverCpuMs(raw) - cpu0;
    return run;
}

PlanRun scriptWalk(RawPipe &raw, int count)
{
    PlanRun run;
    const QByteArray sha = text(checked(raw, { "SCRIPT", "LOAD", kScript }).get());
    RawReply slower = checked(raw, { "CONFIG", "GET", "slowlog-log-slower-than" });
    RawReply maxLen = checked(raw, { "CONFIG", "GET", "slowlog-max-len" });
    const QByteArray oldSlower = text(slower->element[1]), oldMaxLen = text(maxLen->element[1]);
    checked(raw, { "CONFIG", "SET", "slowlog-log-slower-than", "0" });
    checked(raw, { "CONFIG", "SET", "slowlog-max-len", "1000000" });
    checked(raw, { "SLOWLOG", "RESET" });

    const QByteArray countText = QByteArray::number(count);
    const double cpu0 = serverCpuMs(raw);
    const qint64 start = nowNs();
    QByteArray cursor = "0";
    do {
        RawReply r = checked(raw, { "EVALSHA_RO", sha, "0", cursor, countText });
        cursor = text(r->element[0]);
        run.candidates += qint64(r->element[1]->elements / 3);
        ++run.calls;
    } while (cursor != "0");
    run.wallMs = double(nowNs() - start) / 1e6;
    run.serverCpuMs = serverCpuMs(raw) - cpu0;
    slowlogFigures(raw, "EVALSHA_RO", &run.blockAvgUs, &run.blockMaxUs);

    checked(raw, { "SLOWLOG", "RESET" });
    bareWalk(raw, 1000);
    slowlogFigures(raw, "SCAN", &run.scanBlockAvgUs, &run.scanBlockMaxUs);

    checked(raw, { "CONFIG", "SET", "slowlog-log-slower-than", oldSlower });
    checked(raw, { "CONFIG", "SET", "slowlog-max-len", oldMaxLen });
    checked(raw, { "SLOWLOG", "RESET" });
    return run;
}

} // namespace LockScope::Bench
