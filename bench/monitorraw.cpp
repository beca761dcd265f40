#include "monitorraw.h"

#include "hiredisloop.h"

#include "benchcommon.h"
#include "kinds/keyglob.h"
#include "kinds/lockclassifier.h"
#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "kinds/sortedset/sortedsetlayout.h"

#include <hiredis.h>

#include <algorithm>

namespace LockScope::Bench {

void RawReplyDeleter::operator()(redisReply *reply) const
{
    freeReplyObject(reply);
}

QByteArray replyText(const redisReply *reply)
{
    if (!reply)
        return "(no reply)";
    switch (reply->type) {
    case REDIS_REPLY_NIL:
        return "nil";
    case REDIS_REPLY_INTEGER:
        return QByteArray::number(reply->integer);
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
        return QByteArray(reply->str, int(reply->len));
    default:
        return "(array)";
    }
}

bool isErrorReply(const redisReply *reply)
{
    return reply && reply->type == REDIS_REPLY_ERROR;
}

RawPipe::~RawPipe()
{
    if (m_context)
        redisFree(m_context);
}

bool RawPipe::connect(const ConnectionOptions &options, QString *error)
{
    m_context = connectHiredis(options, QStringLiteral("the raw side of this bench"), error);
    if (!m_context)
        return false;
    // The connect timeout would otherwise also bound every read, and one big pipeline may take longer.
    const timeval unlimited { 0, 0 };
    redisSetTimeout(m_context, unlimited);
    auto checked = [&](std::initializer_list<QByteArrayView> argv) {
        RawReply reply = command(argv, error);
        if (reply && isErrorReply(reply.get()))
            *error = QStringLiteral("%1: %2").arg(
                QString::fromUtf8(argv.begin()->toByteArray()), QString::fromUtf8(replyText(reply.get())));
        return error->isEmpty();
    };
    if (!options.password.isEmpty()) {
        const QByteArray &user = options.user;
        const QByteArray &password = options.password;
        if (!(user.isEmpty() ? checked({ "AUTH", password }) : checked({ "AUTH", user, password })))
            return false;
    }
    if (options.db != 0 && !checked({ "SELECT", QByteArray::number(options.db) }))
        return false;
    return true;
}

void RawPipe::appendCurrent()
{
    redisAppendCommandArgv(m_context, int(m_ptrs.size()), m_ptrs.data(), m_lens.data());
}

void RawPipe::append(std::initializer_list<QByteArrayView> argv)
{
    m_ptrs.clear();
    m_lens.clear();
    for (const QByteArrayView &a : argv) {
        m_ptrs.push_back(a.data());
        m_lens.push_back(size_t(a.size()));
    }
    appendCurrent();
}

void RawPipe::append(const QList<QByteArray> &argv)
{
    m_ptrs.clear();
    m_lens.clear();
    for (const QByteArray &a : argv) {
        m_ptrs.push_back(a.constData());
        m_lens.push_back(size_t(a.size()));
    }
    appendCurrent();
}

bool RawPipe::flush(QString *error)
{
    int done = 0;
    while (!done) {
        if (redisBufferWrite(m_context, &done) != REDIS_OK) {
            *error = QStringLiteral("hiredis write: %1").arg(QString::fromUtf8(m_context->errstr));
            return false;
        }
    }
    return true;
}

RawReply RawPipe::next(QString *error)
{
    void *raw = nullptr;
    if (redisGetReply(m_context, &raw) != REDIS_OK || !raw) {
        *error = QStringLiteral("hiredis: %1").arg(QString::fromUtf8(m_context->errstr));
        return nullptr;
    }
    return RawReply(static_cast<redisReply *>(raw));
}

RawReply RawPipe::command(std::initializer_list<QByteArrayView> argv, QString *error)
{
    append(argv);
    return next(error);
}

namespace {
struct Candidate
{
    QByteArray name;
    QList<QPair<QByteArray, QByteArray>> fields;
    bool partial = false;
};

// LockScanner's lockShaped(), on the raw HSCAN page: every field an owner (or a writer) or "mode", one owner at least.
bool lockShaped(const redisReply *page)
{
    bool anyOwner = false;
    for (size_t i = 0; i + 1 < page->elements; i += 2) {
        const redisReply *f = page->element[i];
        const QByteArray field = QByteArray::fromRawData(f->str, qsizetype(f->len));
        const bool owner = isOwnerField(field) || field.endsWith(":write") || field.count(':') >= 2;
        if (!owner && field != "mode")
            return false;
        anyOwner = anyOwner || owner;
    }
    return anyOwner;
}

QList<QPair<QByteArray, QByteArray>> pairs(const redisReply *array)
{
    QList<QPair<QByteArray, QByteArray>> out;
    for (size_t i = 0; i + 1 < array->elements; i += 2)
        out.append({ QByteArray(array->element[i]->str, qsizetype(array->element[i]->len)),
            QByteArray(array->element[i + 1]->str, qsizetype(array->element[i + 1]->len)) });
    return out;
}
// One SCAN call: the next cursor and the keys, or false with *error set.
bool scanPage(RawPipe &pipe, std::initializer_list<QByteArrayView> argv, QByteArray *cursor, QList<QByteArray> *keys,
    QString *error)
{
    RawReply scan = pipe.command(argv, error);
    if (!scan || scan->type != REDIS_REPLY_ARRAY || scan->elements != 2) {
        if (error->isEmpty())
            *error = QStringLiteral("unexpected SCAN reply: %1").arg(QString::fromUtf8(replyText(scan.get())));
        return false;
    }
    *cursor = QByteArray(scan->element[0]->str, qsizetype(scan->element[0]->len));
    const redisReply *found = scan->element[1];
    keys->clear();
    for (size_t i = 0; i < found->elements; ++i)
        keys->append(QByteArray(found->element[i]->str, qsizetype(found->element[i]->len)));
    return true;
}
} // namespace

bool rawSnapshot(RawPipe &pipe, int scanCount, RawSnapshot *out, QString *error)
{
    *out = {};
    const QByteArray count = QByteArray::number(scanCount);
    QByteArray cursor = "0";
    QList<QByteArray> keys;
    std::vector<Candidate> candidates;
    auto read = [&]() {
        RawReply reply = pipe.next(error);
        if (reply && isErrorReply(reply.get()))
            *error = QStringLiteral("raw snapshot: %1").arg(QString::fromUtf8(replyText(reply.get())));
        return error->isEmpty() ? std::move(reply) : nullptr;
    };

    // The hash cursor's reads of one batch: HSCAN + PTTL per hash, whole reads of partial pages, then the aux reads
    // of the lock-shaped ones.
    auto readHashes = [&](const QList<QByteArray> &keys) {
        candidates.clear();
        if (keys.isEmpty())
            return true;
        {
            for (const QByteArray &key : std::as_const(keys)) {
                pipe.append({ "HSCAN", key, "0", "COUNT", "64" });
                pipe.append({ "PTTL", key });
            }
            pipe.append({ "PING" });
            out->commands += 2 * keys.size() + 1;
            for (const QByteArray &key : std::as_const(keys)) {
                RawReply fields = read();
                RawReply pttl = fields ? read() : nullptr;
                if (!pttl)
                    return false;
                if (fields->type != REDIS_REPLY_ARRAY || fields->elements != 2)
                    continue;
                const redisReply *page = fields->element[1];
                if (page->elements == 0 || !lockShaped(page))
                    continue;
                const bool partial = !(fields->element[0]->len == 1 && fields->element[0]->str[0] == '0');
                candidates.push_back({ key, pairs(page), partial });
            }
            if (!read())
                return false;
            // A lock-shaped page of a bigger hash is read whole, as the scanner does.
            int partials = 0;
            for (const Candidate &c : candidates) {
                if (c.partial) {
                    pipe.append({ "HGETALL", c.name });
                    ++partials;
                }
            }
            if (partials > 0) {
                pipe.append({ "PING" });
                out->commands += partials + 1;
                for (Candidate &c : candidates) {
                    if (!c.partial)
                        continue;
                    RawReply all = read();
                    if (!all)
                        return false;
                    c.fields = pairs(all.get());
                }
                if (!read())
                    return false;
            }
        }

        // The aux reads; the scanner sends this pipeline's PING even when no key of the batch was lock-shaped.
        int aux = 0;
        QList<QByteArray> numsub { "PUBSUB", "NUMSUB" }; // one count for the batch, as the scanner sends it
        for (const Candidate &c : candidates) {
            const QByteArray &name = c.name;
            pipe.append({ "EXISTS", LockNames::fencingToken(name) });
            pipe.append({ "ZRANGE", LockNames::fairTimeouts(name), "0", "-1", "WITHSCORES" });
            pipe.append({ "LRANGE", LockNames::fairQueue(name), "0", "-1" });
            const bool readWrite
                = std::any_of(c.fields.cbegin(), c.fields.cend(), [](const auto &f) { return f.first == "mode"; });
            numsub << (readWrite ? LockNames::rwChannel(name) : LockNames::lockChannel(name));
            aux += 3;
            if (!readWrite)
                continue;
            for (const auto &[field, value] : c.fields) {
                if (field == "mode" || field.endsWith(":write"))
                    continue;
                QList<QByteArray> argv { "EXISTS" };
                const QByteArray prefix = LockNames::rwTimeoutPrefix(name, field);
                const qint64 holds = qBound(qint64(0), value.toLongLong(), qint64(1000));
                for (qint64 k = 1; k <= holds; ++k)
                    argv << prefix + ':' + QByteArray::number(k);
                if (argv.size() == 1)
                    continue;
                pipe.append(argv);
                ++aux;
            }
        }
        if (numsub.size() > 2) {
            pipe.append(numsub);
            ++aux;
        }
        pipe.append({ "PING" });
        out->commands += aux + 1;
        for (int i = 0; i <= aux; ++i)
            if (!read())
                return false;
        out->lockShaped += qint64(candidates.size());
        return true;
    };

    // The string cursor's reads: GETRANGE + PTTL of each string in a string lock pattern.
    const QByteArray valueEnd = QByteArray::number(kMaxStringToken);
    const QList<QByteArray> globs = StringLockPatterns::defaults();
    auto readStrings = [&](const QList<QByteArray> &keys) {
        if (keys.isEmpty())
            return true;
        for (const QByteArray &key : keys) {
            pipe.append({ "GETRANGE", key, "0", valueEnd });
            pipe.append({ "PTTL", key });
        }
        pipe.append({ "PING" });
        out->stringKeys += keys.size();
        out->commands += 2 * keys.size() + 1;
        for (qsizetype i = 0; i <= 2 * keys.size(); ++i)
            if (!read())
                return false;
        return true;
    };

    // The sorted-set cursor's reads: the first members with their scores, the size and the PTTL of each sorted set in
    // the sorted-set layouts' patterns.
    QList<QByteArray> zsetGlobs;
    for (const ScanCursor &c : LockLayouts::scanCursors({ "*", StringLockPatterns(globs) }))
        if (c.read == ScanCursor::Read::SortedSet)
            zsetGlobs += c.filter;
    const QByteArray membersEnd = QByteArray::number(SortedSetLayout::kMembersRead - 1);
    auto readSortedSets = [&](const QList<QByteArray> &keys) {
        if (keys.isEmpty())
            return true;
        for (const QByteArray &key : std::as_const(keys)) {
            pipe.append({ "ZRANGE", key, "0", membersEnd, "WITHSCORES" });
            pipe.append({ "ZCARD", key });
            pipe.append({ "PTTL", key });
        }
        pipe.append({ "PING" });
        out->zsetKeys += keys.size();
        out->commands += 3 * keys.size() + 1;
        for (qsizetype i = 0; i <= 3 * keys.size(); ++i)
            if (!read())
                return false;
        return true;
    };

    const auto inGlobs = [](const QList<QByteArray> &list, const QByteArray &key) {
        return std::any_of(list.cbegin(), list.cend(), [&key](const QByteArray &glob) { return globMatch(glob, key); });
    };
    // The scanner's walk: one untyped SCAN, the TYPE of each key it returns in one pipeline closed by a PING, then
    // each cursor's reads of the keys it takes. (The fair queue cursor's reads of orphaned queues are left out: the
    // bench's queues all have their lock.)
    const qint64 start = nowNs();
    do {
        ++out->scanCalls;
        ++out->commands;
        if (!scanPage(pipe, { "SCAN", cursor, "MATCH", "*", "COUNT", count }, &cursor, &keys, error))
            return false;
        out->keysSeen += keys.size();
        if (keys.isEmpty())
            continue;
        for (const QByteArray &key : std::as_const(keys))
            pipe.append({ "TYPE", key });
        pipe.append({ "PING" });
        out->typeCalls += keys.size();
        out->commands += keys.size() + 1;
        QList<QByteArray> hashes, strings, sortedSets;
        for (const QByteArray &key : std::as_const(keys)) {
            RawReply type = read();
            if (!type)
                return false;
            const QByteArray t = replyText(type.get());
            if (t == "hash")
                hashes << key;
            else if (t == "string" && inGlobs(globs, key))
                strings << key;
            else if (t == "zset" && inGlobs(zsetGlobs, key))
                sortedSets << key;
        }
        if (!read())
            return false;
        out->hashesSeen += hashes.size();
        if (!readHashes(hashes) || !readStrings(strings) || !readSortedSets(sortedSets))
            return false;
    } while (cursor != "0");
    out->elapsedNs = nowNs() - start;
    return true;
}

void requireEmptyDatabase(RawPipe &raw, const ConnectionOptions &options)
{
    QString error;
    RawReply size = raw.command({ "DBSIZE" }, &error);
    if (!size || size->type != REDIS_REPLY_INTEGER || size->integer != 0)
        fatal(QStringLiteral("%1 is not an empty database; pick an empty one (e.g. /15 in the URL)")
                  .arg(options.toDisplayUrl()));
}

void openSeedServer(const QString &url, BenchServer &server, RawPipe &raw)
{
    QString error;
    if (!server.open(url, &error) || !raw.connect(server.options(), &error))
        fatal(error);
    if (!server.isPrivate())
        requireEmptyDatabase(raw, server.options());
}

qint64 removeSeeded(RawPipe &pipe, QString *error)
{
    qint64 removed = 0;
    QByteArray cursor = "0";
    do {
        RawReply scan = pipe.command({ "SCAN", cursor, "MATCH", "*bench:*", "COUNT", "1000" }, error);
        if (!scan || scan->type != REDIS_REPLY_ARRAY || scan->elements != 2) {
            if (error->isEmpty())
                *error = QStringLiteral("cleanup SCAN: %1").arg(QString::fromUtf8(replyText(scan.get())));
            return removed;
        }
        cursor = QByteArray(scan->element[0]->str, qsizetype(scan->element[0]->len));
        const redisReply *found = scan->element[1];
        if (found->elements == 0)
            continue;
        QList<QByteArray> argv { "UNLINK" };
        for (size_t i = 0; i < found->elements; ++i)
            argv << QByteArray(found->element[i]->str, qsizetype(found->element[i]->len));
        pipe.append(argv);
        RawReply unlinked = pipe.next(error);
        if (!unlinked || isErrorReply(unlinked.get())) {
            if (error->isEmpty())
                *error = QStringLiteral("cleanup UNLINK: %1").arg(QString::fromUtf8(replyText(unlinked.get())));
            return removed;
        }
        removed += unlinked->integer;
    } while (cursor != "0");
    return removed;
}

// The server's own CPU so far (user + system), in ms, from INFO cpu.
double serverCpuMs(RawPipe &raw)
{
    QString error;
    RawReply info = raw.command({ "INFO", "cpu" }, &error);
    if (!info || info->type != REDIS_REPLY_STRING)
        fatal(QStringLiteral("INFO cpu: %1").arg(error));
    double total = 0;
    for (const QByteArray &line : QByteArray(info->str, qsizetype(info->len)).split('\n')) {
        if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:"))
            total += line.mid(line.indexOf(':') + 1).trimmed().toDouble() * 1000;
    }
    return total;
}

Walk bareWalk(RawPipe &raw, int count)
{
    Walk w;
    QString error;
    const double cpu0 = serverCpuMs(raw);
    const qint64 start = nowNs();
    QByteArray cursor = "0";
    const QByteArray countText = QByteArray::number(count);
    do {
        RawReply scan = raw.command({ "SCAN", cursor, "COUNT", countText }, &error);
        if (!scan || scan->type != REDIS_REPLY_ARRAY || scan->elements != 2)
            fatal(QStringLiteral("SCAN: %1").arg(error));
        cursor = QByteArray(scan->element[0]->str, qsizetype(scan->element[0]->len));
        w.keys += qint64(scan->element[1]->elements);
    } while (cursor != "0");
    w.wallMs = double(nowNs() - start) / 1e6;
    w.serverCpuMs = serverCpuMs(raw) - cpu0;
    return w;
}

} // namespace LockScope::Bench
