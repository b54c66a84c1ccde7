/*
 * C++17 wrapper of libmdgate-consumer (header only): an RAII consumer that closes itself, a poll taking any
 * callable without allocating, and the SBE-generated tick codec (mdgate/sbe/Tick.h, generated at build time from
 * gateway-core's mdgate-tick-schema.xml) for reading a delivered tick in place.
 *
 *     mdgate::config settings;
 *     settings.raw().name = "strategy-1";
 *     settings.raw().token = secret;
 *     mdgate::consumer consumer(settings);             // throws mdgate::error with the reason when refused
 *     consumer.subscribe("AAPL");
 *     consumer.subscribe(42, MDGATE_VIEW_DEPTH_ONLY);
 *     while (running)
 *     {
 *         consumer.poll([&](const std::uint8_t *bytes)
 *         {
 *             const mdgate::sbe::Tick tick = mdgate::decode(bytes);
 *             on_tick(tick.gatewaySequence(), tick.instrumentId(), tick.price().mantissa());
 *         });
 *     }
 *
 * Only the constructor throws; everything on the poll path returns codes, as the C API does.
 */
#ifndef MDGATE_CONSUMER_HPP
#define MDGATE_CONSUMER_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "mdgate/consumer.h"
#include "mdgate/protocol.h"
#include "mdgate/sbe/Tick.h"

namespace mdgate
{

/** Why connecting failed: an MDGATE_E_* code, the REJECT reason when refused, and the library's words. */
class error : public std::runtime_error
{
public:
    error(int code, int reject_reason, const std::string &message) :
        std::runtime_error(message), code_(code), reject_reason_(reject_reason)
    {
    }

    int code() const noexcept
    {
        return code_;
    }

    /** MDGATE_REJECT_* when the publisher refused the consumer, else 0. */
    int reject_reason() const noexcept
    {
        return reject_reason_;
    }

private:
    int code_;
    int reject_reason_;
};

/** Settings with the library's defaults; raw() gives the C struct to change them. */
class config
{
public:
    config() noexcept
    {
        mdgate_consumer_config_init(&config_);
    }

    mdgate_consumer_config &raw() noexcept
    {
        return config_;
    }

    const mdgate_consumer_config &raw() const noexcept
    {
        return config_;
    }

private:
    mdgate_consumer_config config_{};
};

/** A delivered tick (64 bytes, valid during the handler's call) as the SBE decoder, read in place, no copy. */
inline sbe::Tick decode(const std::uint8_t *tick)
{
    sbe::Tick decoder;
    // The generated decoder takes char *; it only reads through it when wrapped for decoding.
    decoder.wrapForDecode(const_cast<char *>(reinterpret_cast<const char *>(tick)), 0, sbe::Tick::sbeBlockLength(),
        sbe::Tick::sbeSchemaVersion(), MDGATE_TICK_LENGTH);
    return decoder;
}

/** A connected consumer; move-only, closed (BYE, region removed) when destroyed. One thread uses it. */
class consumer
{
public:
    /** Connects and authenticates; throws mdgate::error saying why when it cannot. */
    explicit consumer(const config &settings)
    {
        char text[1536];
        int reason = 0;
        const int result = mdgate_consumer_connect(&settings.raw(), &consumer_, text, sizeof text, &reason);
        if (result != MDGATE_OK)
        {
            throw error(result, reason, text);
        }
    }

    consumer(const consumer &) = delete;
    consumer &operator=(const consumer &) = delete;

    consumer(consumer &&other) noexcept : consumer_(std::exchange(other.consumer_, nullptr))
    {
    }

    consumer &operator=(consumer &&other) noexcept
    {
        if (this != &other)
        {
            mdgate_consumer_close(consumer_);
            consumer_ = std::exchange(other.consumer_, nullptr);
        }
        return *this;
    }

    ~consumer()
    {
        mdgate_consumer_close(consumer_);
    }

    /**
     * Delivers ticks in sequence order to handler(const std::uint8_t *tick), which the compiler sees through (no
     * std::function, no allocation). Returns work done, or MDGATE_E_REJECTED / MDGATE_E_CLOSED.
     */
    template <typename Handler>
    int poll(Handler &&handler, int limit = 256)
    {
        using handler_type = std::remove_reference_t<Handler>;
        return mdgate_consumer_poll(consumer_, &trampoline<handler_type>,
            const_cast<void *>(static_cast<const void *>(&handler)), limit);
    }

    int subscribe(int instrument_id, mdgate_view view = MDGATE_VIEW_ALL_TICKS) noexcept
    {
        return mdgate_consumer_subscribe_id(consumer_, instrument_id, view);
    }

    int subscribe(std::string_view symbol, mdgate_view view = MDGATE_VIEW_ALL_TICKS)
    {
        return mdgate_consumer_subscribe_symbol(consumer_, std::string(symbol).c_str(), view);
    }

    int subscribe_all(mdgate_view view = MDGATE_VIEW_ALL_TICKS) noexcept
    {
        return mdgate_consumer_subscribe_all(consumer_, view);
    }

    int unsubscribe(int instrument_id) noexcept
    {
        return mdgate_consumer_unsubscribe_id(consumer_, instrument_id);
    }

    int unsubscribe(std::string_view symbol)
    {
        return mdgate_consumer_unsubscribe_symbol(consumer_, std::string(symbol).c_str());
    }

    int awaiting_answers() const noexcept
    {
        return mdgate_consumer_awaiting_answers(consumer_);
    }

    /** MDGATE_TOB_READ, _EMPTY, _BUSY, or MDGATE_E_NO_SLOT. */
    int top_of_book(int instrument_id, mdgate_top_of_book &out) noexcept
    {
        return mdgate_consumer_top_of_book(consumer_, instrument_id, &out);
    }

    /** MDGATE_TOB_READ, _EMPTY, _BUSY, or MDGATE_E_NO_SLOT (no slot, or no depth table). */
    int depth(int instrument_id, mdgate_depth &out) noexcept
    {
        return mdgate_consumer_depth(consumer_, instrument_id, &out);
    }

    /** min(L, D): the levels per side depth() gives. */
    int depth_levels() const noexcept
    {
        return mdgate_consumer_depth_levels(consumer_);
    }

    /** Asks for a late-join snapshot of the subscribed instruments (see mdgate_consumer_request_snapshot). */
    int request_snapshot() noexcept
    {
        return mdgate_consumer_request_snapshot(consumer_);
    }

    /** The sequence S of the last snapshot delivered, 0 before one. */
    std::int64_t snapshot_sequence() const noexcept
    {
        return mdgate_consumer_snapshot_sequence(consumer_);
    }

    std::int64_t last_delivered() const noexcept
    {
        return mdgate_consumer_last_delivered(consumer_);
    }

    bool connected() const noexcept
    {
        return mdgate_consumer_is_connected(consumer_) != 0;
    }

    bool recovering() const noexcept
    {
        return mdgate_consumer_is_recovering(consumer_) != 0;
    }

    bool reads_shared_log() const noexcept
    {
        return mdgate_consumer_reads_shared_log(consumer_) != 0;
    }

    const mdgate_counters &counters() const noexcept
    {
        return *mdgate_consumer_counters(consumer_);
    }

    std::int64_t latency_percentile(double percentile) const noexcept
    {
        return mdgate_consumer_latency_percentile(consumer_, percentile);
    }

    std::string_view last_error() const noexcept
    {
        return mdgate_consumer_last_error(consumer_);
    }

    /** The C handle, for the calls this wrapper does not cover. */
    mdgate_consumer *handle() noexcept
    {
        return consumer_;
    }

private:
    template <typename Handler>
    static void trampoline(void *context, const std::uint8_t *tick)
    {
        (*static_cast<Handler *>(context))(tick);
    }

    mdgate_consumer *consumer_ = nullptr;
};

} // namespace mdgate

#endif
