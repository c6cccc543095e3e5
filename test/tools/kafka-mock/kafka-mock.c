/*
 * Starts librdkafka's in-process mock Kafka cluster so the Kafka adapter can be tested over a real
 * Kafka-protocol socket without installing a broker.
 *
 *   kafka-mock [--brokers N] [--partitions P] [--until-signal] [--debug] TOPIC...
 *
 * The mock has no CreateTopics API, so every topic a test needs is created here, up front, with P
 * partitions. The bootstrap servers are printed on stdout as the first line; the process then runs
 * until stdin reaches end-of-file (the parent died or closed the pipe, so no orphan keeps ports
 * open) or until SIGTERM/SIGINT. With --until-signal stdin is ignored, for running it in the
 * background of a shell script.
 *
 * While running, stdin takes one command per line, each answered with a line "ok" or "error ...":
 *   topic NAME [PARTITIONS]   create another topic
 *   down BROKER_ID            disconnect a broker and refuse new connections (-1: all)
 *   up BROKER_ID              accept connections again (-1: all)
 *   rtt BROKER_ID MS          add round-trip latency to a broker (-1: all)
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static volatile sig_atomic_t stop_requested = 0;

static void on_signal(int signal_number) {
        (void)signal_number;
        stop_requested = 1;
}

static void usage(FILE *out) {
        fprintf(out,
                "usage: kafka-mock [--brokers N] [--partitions P] [--until-signal] "
                "[--debug] TOPIC...\n");
}

static int parse_positive(const char *text, int *value) {
        char *end = NULL;
        long parsed;

        errno  = 0;
        parsed = strtol(text, &end, 10);
        if (errno || end == text || *end != '\0' || parsed < 1 || parsed > 100000)
                return -1;
        *value = (int)parsed;
        return 0;
}

static int parse_broker_id(const char *text, int32_t *value) {
        char *end = NULL;
        long parsed;

        errno  = 0;
        parsed = strtol(text, &end, 10);
        if (errno || end == text || *end != '\0' || parsed < -1 || parsed > 100000)
                return -1;
        *value = (int32_t)parsed;
        return 0;
}

static void reply(rd_kafka_resp_err_t err) {
        if (err)
                printf("error %s\n", rd_kafka_err2str(err));
        else
                printf("ok\n");
        fflush(stdout);
}

static void run_command(rd_kafka_mock_cluster_t *cluster,
                        char *line,
                        int default_partitions,
                        int replication_factor) {
        char *saveptr = NULL;
        char *verb    = strtok_r(line, " \t\r", &saveptr);
        char *first   = verb ? strtok_r(NULL, " \t\r", &saveptr) : NULL;
        char *second  = first ? strtok_r(NULL, " \t\r", &saveptr) : NULL;
        int32_t broker_id;
        int number;
        int error_code;

        if (!verb)
                return;

        if (!strcmp(verb, "topic") && first) {
                number = default_partitions;
                if (second && parse_positive(second, &number)) {
                        printf("error bad partition count\n");
                        fflush(stdout);
                        return;
                }
                reply(rd_kafka_mock_topic_create(cluster, first, number,
                                                 replication_factor));
        } else if (!strcmp(verb, "down") && first &&
                   !parse_broker_id(first, &broker_id)) {
                reply(rd_kafka_mock_broker_set_down(cluster, broker_id));
        } else if (!strcmp(verb, "up") && first &&
                   !parse_broker_id(first, &broker_id)) {
                reply(rd_kafka_mock_broker_set_up(cluster, broker_id));
        } else if (!strcmp(verb, "produce-errors") && first && second &&
                   !parse_positive(first, &error_code) &&
                   !parse_positive(second, &number)) {
                /* The next `number` produce requests answer Kafka error
                 * code `first` for each partition (e.g. 10,
                 * MESSAGE_TOO_LARGE). */
                rd_kafka_resp_err_t errors[64];
                int i;
                if (number > 64) {
                        printf("error at most 64 errors\n");
                        fflush(stdout);
                        return;
                }
                for (i = 0; i < number; i++)
                        errors[i] = (rd_kafka_resp_err_t)error_code;
                rd_kafka_mock_push_request_errors_array(
                    cluster, 0 /* Produce */, (size_t)number, errors);
                reply(RD_KAFKA_RESP_ERR_NO_ERROR);
        } else if (!strcmp(verb, "rtt") && first && second &&
                   !parse_broker_id(first, &broker_id) &&
                   !parse_positive(second, &number)) {
                reply(rd_kafka_mock_broker_set_rtt(cluster, broker_id, number));
        } else {
                printf("error unknown command\n");
                fflush(stdout);
        }
}

/* Returns 1 when stdin reached end-of-file or failed, 0 otherwise. */
static int read_commands(rd_kafka_mock_cluster_t *cluster,
                         char *buffer,
                         size_t *used,
                         size_t capacity,
                         int default_partitions,
                         int replication_factor) {
        ssize_t count = read(STDIN_FILENO, buffer + *used, capacity - 1 - *used);
        char *line_start;
        char *newline;

        if (count < 0)
                return errno == EINTR ? 0 : 1;
        if (count == 0)
                return 1;

        *used += (size_t)count;
        buffer[*used] = '\0';

        line_start = buffer;
        while ((newline = strchr(line_start, '\n'))) {
                *newline = '\0';
                run_command(cluster, line_start, default_partitions,
                            replication_factor);
                line_start = newline + 1;
        }

        *used -= (size_t)(line_start - buffer);
        memmove(buffer, line_start, *used);
        if (*used == capacity - 1) /* A line longer than the buffer: drop it. */
                *used = 0;
        return 0;
}

int main(int argc, char **argv) {
        int broker_count   = 1;
        int partitions     = 1;
        int until_signal   = 0;
        int debug          = 0;
        int replication_factor;
        int i;
        char errstr[512];
        char buffer[4096];
        size_t used = 0;
        rd_kafka_conf_t *conf;
        rd_kafka_t *handle;
        rd_kafka_mock_cluster_t *cluster;
        struct sigaction action;

        for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
                if (!strcmp(argv[i], "--brokers") && i + 1 < argc) {
                        if (parse_positive(argv[++i], &broker_count)) {
                                usage(stderr);
                                return 2;
                        }
                } else if (!strcmp(argv[i], "--partitions") && i + 1 < argc) {
                        if (parse_positive(argv[++i], &partitions)) {
                                usage(stderr);
                                return 2;
                        }
                } else if (!strcmp(argv[i], "--until-signal")) {
                        until_signal = 1;
                } else if (!strcmp(argv[i], "--debug")) {
                        debug = 1;
                } else if (!strcmp(argv[i], "--help")) {
                        usage(stdout);
                        return 0;
                } else {
                        usage(stderr);
                        return 2;
                }
        }

        memset(&action, 0, sizeof(action));
        action.sa_handler = on_signal;
        sigaction(SIGTERM, &action, NULL);
        sigaction(SIGINT, &action, NULL);
        /* The parent may stop reading our stdout; losing a reply must not kill the cluster. */
        signal(SIGPIPE, SIG_IGN);

        /* The mock cluster lives inside a client handle; this one is never used to produce. */
        conf = rd_kafka_conf_new();
        /* log_level 4 hides the notice that this handle has no bootstrap.servers of its own. */
        if (rd_kafka_conf_set(conf, "client.id", "kafka-mock", errstr,
                              sizeof(errstr)) != RD_KAFKA_CONF_OK ||
            rd_kafka_conf_set(conf, "log_level", debug ? "7" : "4", errstr,
                              sizeof(errstr)) != RD_KAFKA_CONF_OK ||
            (debug && rd_kafka_conf_set(conf, "debug", "mock", errstr,
                                        sizeof(errstr)) != RD_KAFKA_CONF_OK)) {
                fprintf(stderr, "kafka-mock: %s\n", errstr);
                return 1;
        }
        handle = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
        if (!handle) {
                fprintf(stderr, "kafka-mock: %s\n", errstr);
                return 1;
        }

        cluster = rd_kafka_mock_cluster_new(handle, broker_count);
        if (!cluster) {
                fprintf(stderr, "kafka-mock: could not create the mock cluster\n");
                rd_kafka_destroy(handle);
                return 1;
        }

        replication_factor = broker_count < 3 ? broker_count : 3;
        for (; i < argc; i++) {
                rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(
                    cluster, argv[i], partitions, replication_factor);
                if (err) {
                        fprintf(stderr, "kafka-mock: topic %s: %s\n", argv[i],
                                rd_kafka_err2str(err));
                        rd_kafka_mock_cluster_destroy(cluster);
                        rd_kafka_destroy(handle);
                        return 1;
                }
        }

        printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
        fflush(stdout);

        while (!stop_requested) {
                struct pollfd input = {.fd = STDIN_FILENO, .events = POLLIN};
                int ready = poll(&input, until_signal ? 0 : 1, 500);

                if (ready < 0 && errno != EINTR)
                        break;
                if (ready > 0 &&
                    read_commands(cluster, buffer, &used, sizeof(buffer), partitions,
                                  replication_factor))
                        break;
        }

        rd_kafka_mock_cluster_destroy(cluster);
        rd_kafka_destroy(handle);
        return 0;
}
