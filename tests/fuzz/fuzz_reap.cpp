// The reaper's two inputs from files (docs/reap-policy.md): byte 0 picks a policy (the rest as YAML, through
// ReapPolicy::parse) or an approval (the rest as a dry run's JSON lines, through ReapApproval::fromReport).
// A policy either parses, with every rule naming two signals, unique rule names and quotas in range, or says why; an
// approval is accepted only when its items hash to the hash it carries, and each item's JSON reads back as the same
// hold.
#include "fuzzinput.h"
#include "fuzzqt.h"
#include "reclaim/reappolicy.h"
#include "reclaim/reapreport.h"

#include <QSet>

using namespace LockScope;
using namespace LockScope::Fuzz;

namespace {
void checkPolicy(const QByteArray &yaml)
{
    QString error;
    const std::optional<ReapPolicy> policy = ReapPolicy::parse(yaml, QStringLiteral("fuzz"), &error);
    if (!policy) {
        FUZZ_CHECK(!error.isEmpty());
        return;
    }
    FUZZ_CHECK(!policy->rules.isEmpty() && !policy->name.isEmpty());
    FUZZ_CHECK(policy->maxPerRun >= 0 && policy->everyMs >= 1000);
    FUZZ_CHECK(policy->sha256.size() == 64);
    QSet<QString> names;
    for (const ReapRule &rule : policy->rules) {
        FUZZ_CHECK(rule.signalCount() >= 2);
        FUZZ_CHECK(!rule.pattern.isEmpty());
        FUZZ_CHECK(!names.contains(rule.name));
        names.insert(rule.name);
    }
    FUZZ_CHECK(policy->observeMs() >= 0);
}

void checkApproval(const QByteArray &lines)
{
    QString error;
    const std::optional<ReapApproval> approval = ReapApproval::fromReport(lines, QStringLiteral("fuzz"), &error);
    if (!approval) {
        FUZZ_CHECK(!error.isEmpty());
        return;
    }
    FUZZ_CHECK(approval->report && approval->report->sha256() == approval->sha256);
    for (const ReapItem &item : approval->report->items) {
        const std::optional<ReapItem> back = ReapItem::fromJson(item.toJson());
        FUZZ_CHECK(back && back->action == item.action);
        // Names and owners that are not UTF-8 travel escaped; their escapes read back as the same bytes.
        FUZZ_CHECK(back->sameHold(item) || item.name.contains('\\') || item.owner.contains('\\'));
    }
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    LockScope::Fuzz::startQt("fuzz_reap");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    const quint8 mode = in.byte();
    const QByteArray bytes = in.rest();
    if (mode & 1)
        checkApproval(bytes);
    else
        checkPolicy(bytes);
    return 0;
}
