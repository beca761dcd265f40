#pragma once

#include <QByteArray>
#include <QList>

namespace LockScope::LockNameMap {

// The lock names a changed key or a wake-up channel may belong to, inverting prefixName and suffixName
// (docs/protocol/README.md#key-naming-and-hash-tags): the lock itself, or each layout's reading of its aux keys (a
// fair queue and deadlines, a fencing token, a reader's timeout key, an expirable semaphore's permit set) and of its
// channels. Some shapes are ambiguous (a name may itself contain ':' and braces), so every reading is returned;
// refreshing a name that does not exist costs one read.
// Every layout's reading of key (LockRecogniser::namesFromAuxKey), each name once; key itself when none reads it.
QList<QByteArray> fromKey(const QByteArray &key);
// The same, empty when key is no layout's aux key.
QList<QByteArray> fromAuxKey(const QByteArray &key);
// Every layout's reading of the channel (LockLayout::namesFromChannel), each name once.
QList<QByteArray> fromChannel(const QByteArray &channel);
// Every layout's release channel patterns, each once: what a monitor subscribes to.
QList<QByteArray> releaseChannelPatterns();
// Every layout's vouching channel patterns, each once (LockRecogniser::vouchingChannelPatterns).
QList<QByteArray> vouchingChannelPatterns();
// The channels whose subscribers would vouch for name, each once (the release channels of the layouts that have
// vouching patterns).
QList<QByteArray> vouchingChannels(const QByteArray &name);

// The inversions the layouts' readings share. unwrap: "{X}" -> X and "{X}" itself, else the text as it is.
// afterPrefix: the text after prefix, when it starts so and something follows. stripOwner: "<X>:<uuid>:<token>" -> X.
QList<QByteArray> unwrap(const QByteArray &rest);
bool afterPrefix(const QByteArray &text, const char *prefix, QByteArray *rest);
bool stripOwner(const QByteArray &text, QByteArray *rest);
// Every reading of the name in a channel "<prefix><name>" (none when it is not one).
QList<QByteArray> namesAfter(const QByteArray &channel, const char *prefix);

// Keys the monitor never shows: unlock latches are bookkeeping, not locks.
bool isBookkeeping(const QByteArray &key);

} // namespace LockScope::LockNameMap
