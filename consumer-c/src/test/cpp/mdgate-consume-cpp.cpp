// The C++ wrapper at work: connects with mdgate::consumer, subscribes by id, decodes each delivered tick in place
// with the SBE codec and prints "<sequence> <instrument> <event> <price mantissa> <quantity>" per tick until it has
// delivered sequence `until`, then "TOB <instrument> <result> <bid> <ask>" and "DEPTH <instrument> <result> <bid
// levels> <ask levels> (<price> <shares> <orders>)... bids then asks" per instrument, and "DONE". Built with
// -Wall -Wextra -Werror by src/main/c/Makefile (CXX_CHECK=1); CppWrapperTest runs it against a publisher.
// Arguments: key=value, keys dir, instance, name, token, instruments (comma-separated ids), until, depth (L).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "mdgate/consumer.hpp"

int main(int argc, char **argv)
{
    std::map<std::string, std::string> options;
    for (int i = 1; i < argc; i++)
    {
        const std::string argument = argv[i];
        const auto equals = argument.find('=');
        if (equals == std::string::npos)
        {
            std::fprintf(stderr, "mdgate-consume-cpp: arguments are key=value, was '%s'\n", argv[i]);
            return 2;
        }
        options[argument.substr(0, equals)] = argument.substr(equals + 1);
    }
    mdgate::config settings;
    if (options.count("dir") != 0)
    {
        settings.raw().directory = options["dir"].c_str();
    }
    settings.raw().instance = options["instance"].c_str();
    settings.raw().name = options["name"].c_str();
    settings.raw().token = options["token"].c_str();
    const long long until = std::atoll(options["until"].c_str());
    if (options.count("depth") != 0)
    {
        settings.raw().depth_levels = std::atoi(options["depth"].c_str());
    }
    std::vector<int> instruments;
    std::stringstream list(options["instruments"]);
    for (std::string item; std::getline(list, item, ',');)
    {
        instruments.push_back(std::atoi(item.c_str()));
    }
    try
    {
        mdgate::consumer consumer(settings);
        for (const int instrument : instruments)
        {
            consumer.subscribe(instrument);
        }
        bool ready = false;
        while (consumer.last_delivered() < until)
        {
            const int work = consumer.poll([](const std::uint8_t *bytes)
            {
                mdgate::sbe::Tick tick = mdgate::decode(bytes);
                std::printf("%llu %u %d %d %u\n", static_cast<unsigned long long>(tick.gatewaySequence()),
                    static_cast<unsigned>(tick.instrumentId()), static_cast<int>(tick.eventTypeRaw()),
                    static_cast<int>(tick.price().mantissa()), static_cast<unsigned>(tick.quantity()));
            });
            if (work < 0)
            {
                std::fprintf(stderr, "mdgate-consume-cpp: %s\n", std::string(consumer.last_error()).c_str());
                return 1;
            }
            if (!ready && consumer.connected() && consumer.awaiting_answers() == 0)
            {
                ready = true;
                std::fprintf(stderr, "mdgate-consume-cpp: ready: subscribed\n");
            }
            std::fflush(stdout);
        }
        for (const int instrument : instruments)
        {
            mdgate_top_of_book quote{};
            const int result = consumer.top_of_book(instrument, quote);
            std::printf("TOB %d %d %d %d\n", instrument, result, quote.bid_price, quote.ask_price);
            mdgate_depth book{};
            const int read = consumer.depth(instrument, book);
            std::printf("DEPTH %d %d %d %d", instrument, read, book.bid_levels, book.ask_levels);
            for (int i = 0; i < book.bid_levels; i++)
            {
                std::printf(" %d %u %u", book.bids[i].price, book.bids[i].shares, book.bids[i].orders);
            }
            for (int i = 0; i < book.ask_levels; i++)
            {
                std::printf(" %d %u %u", book.asks[i].price, book.asks[i].shares, book.asks[i].orders);
            }
            std::printf("\n");
        }
        std::printf("DONE\n");
        return 0;
    }
    catch (const mdgate::error &refused)
    {
        std::fprintf(stderr, "mdgate-consume-cpp: %s (code %d, reason %d)\n", refused.what(), refused.code(),
            refused.reject_reason());
        return 1;
    }
}
