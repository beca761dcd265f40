#pragma once

#include "kinds/lockclassifier.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

namespace LockScope {

// What classify() read off a Redisson lock hash before it asks the layouts whose it is: the facts their fingerprints
// and descriptions use (docs/protocol/classification.md#kind-evidence).
struct HashReading
{
    QByteArray mode; // the "mode" field ("read", "write"), empty when there is none
    bool anyWriter = false; // a field ends in ":write"
    bool anyTransactional = false; // a field carries a transaction id
};

// One translation context for every classifier text, wherever the layout that words it lives (a free function named
// tr() would be filed by lupdate under the enclosing namespace, and never found at run time).
class ClassifierText
{
    Q_DECLARE_TR_FUNCTIONS(LockScope::LockClassifier)
};

// What every exclusive Redisson layout (reentrant, fenced, fair) says of its hash: kind and its evidence, a warning
// when it has several owners, and a transaction's owner.
void describeExclusive(const HashReading &hash, LockInfo &info, LockInfo::Kind kind, const QString &evidence);

} // namespace LockScope
