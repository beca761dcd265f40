#include "reclaim/clientverdicts.h"

#include "liveness/holderwatch.h"
#include "liveness/livenessjudge.h"
#include "ops/releaseclient.h"

namespace LockScope {

void judgeClientItems(ClientPlan *plan, const HolderWatch &watch)
{
    for (ClientItem &item : plan->items) {
        if (item.what == ClientItem::What::QueueEntry || !item.reading.lock)
            continue;
        for (const LockHolder &h : item.reading.holders)
            if (h.owner == item.owner) {
                const LivenessVerdict v = watch.verdict(*item.reading.lock, h);
                item.alive = v.state == LivenessVerdict::State::Alive;
                item.liveness = v.summary;
            }
    }
}

} // namespace LockScope
