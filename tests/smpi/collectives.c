/*
 * jumpnet's collective schedules written as MPI point-to-point programs, for the SMPI
 * cross-validation of `jumpnet sim --collective` (docs/smpi.md).
 *
 * Usage: collectives ALGO BYTES
 *   ALGO  bcast      binomial-tree broadcast from rank 0 (docs/collectives.md §1)
 *         allreduce  recursive-doubling allreduce of 4-byte ints (§2)
 *         alltoall   Bruck all-to-all, BYTES per block (§3)
 *   BYTES message size as `jumpnet sim --collective --msg`: the whole vector for bcast and
 *         allreduce, one block for alltoall.
 *
 * The sends of one step are posted together (MPI_Isend), as jumpnet's NIC hands every send
 * of a step to the network at once; a rank's program waits for its receives only where
 * jumpnet's program does. Rank 0 prints one line:
 *   ALGO BYTES RANKS MAKESPAN_SECONDS
 * the latest finish time of any rank, counted from the start (every rank starts at 0).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *msg) {
  fprintf(stderr, "collectives: %s\n", msg);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

static void bcast(char *buf, long bytes, int rank, int n) {
  MPI_Request req[64];
  int nreq = 0;
  int mask = 1;
  while (mask < n) {
    if (rank & mask) {
      MPI_Recv(buf, (int)bytes, MPI_BYTE, rank - mask, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    }
    mask <<= 1;
  }
  mask >>= 1;
  while (mask > 0) {
    if (rank + mask < n)
      MPI_Isend(buf, (int)bytes, MPI_BYTE, rank + mask, 0, MPI_COMM_WORLD, &req[nreq++]);
    mask >>= 1;
  }
  MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
}

static void reduce_into(int *acc, const int *in, long count) {
  for (long i = 0; i < count; i++)
    acc[i] += in[i];
}

static void allreduce(int *vec, int *tmp, long bytes, int rank, int n) {
  long count = bytes / 4;
  int pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  int rem = n - pof2, newrank;
  if (rank < 2 * rem) {
    if (rank % 2 == 0) {
      MPI_Send(vec, (int)count, MPI_INT, rank + 1, 1, MPI_COMM_WORLD);
      newrank = -1;
    } else {
      MPI_Recv(tmp, (int)count, MPI_INT, rank - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      reduce_into(vec, tmp, count);
      newrank = rank / 2;
    }
  } else {
    newrank = rank - rem;
  }
  if (newrank != -1) {
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int newdst = newrank ^ mask;
      int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
      MPI_Sendrecv(vec, (int)count, MPI_INT, dst, 2, tmp, (int)count, MPI_INT, dst, 2,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      reduce_into(vec, tmp, count);
    }
  }
  if (rank < 2 * rem) {
    if (rank % 2 == 1)
      MPI_Send(vec, (int)count, MPI_INT, rank - 1, 3, MPI_COMM_WORLD);
    else
      MPI_Recv(vec, (int)count, MPI_INT, rank + 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static void alltoall(char *buf, char *pack, char *unpack, long block, int rank, int n) {
  /* buf holds n blocks after the local rotation; each step sends the blocks whose index has
   * bit `pof2` set to rank + pof2 and receives the same indices from rank - pof2. */
  for (int pof2 = 1; pof2 < n; pof2 <<= 1) {
    long k = 0;
    for (int i = 1; i < n; i++)
      if (i & pof2)
        memcpy(pack + (k++) * block, buf + (long)i * block, (size_t)block);
    int dst = (rank + pof2) % n, src = (rank - pof2 + n) % n;
    MPI_Sendrecv(pack, (int)(k * block), MPI_BYTE, dst, 4, unpack, (int)(k * block), MPI_BYTE,
                 src, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    k = 0;
    for (int i = 1; i < n; i++)
      if (i & pof2)
        memcpy(buf + (long)i * block, unpack + (k++) * block, (size_t)block);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc != 3)
    die("usage: collectives bcast|allreduce|alltoall BYTES");
  const char *algo = argv[1];
  long bytes = atol(argv[2]);
  if (bytes <= 0 || bytes > (1L << 30))
    die("BYTES must be 1..=1073741824");
  if (n > (1 << 30) || n < 2)
    die("needs 2 or more ranks");
  double start = MPI_Wtime();
  if (strcmp(algo, "bcast") == 0) {
    char *buf = calloc((size_t)bytes, 1);
    bcast(buf, bytes, rank, n);
    free(buf);
  } else if (strcmp(algo, "allreduce") == 0) {
    if (bytes % 4 != 0)
      die("allreduce BYTES must be a multiple of 4");
    int *vec = calloc((size_t)bytes, 1), *tmp = calloc((size_t)bytes, 1);
    allreduce(vec, tmp, bytes, rank, n);
    free(vec);
    free(tmp);
  } else if (strcmp(algo, "alltoall") == 0) {
    char *buf = calloc((size_t)(bytes * n), 1);
    char *pack = calloc((size_t)(bytes * n), 1), *unpack = calloc((size_t)(bytes * n), 1);
    alltoall(buf, pack, unpack, bytes, rank, n);
    free(buf);
    free(pack);
    free(unpack);
  } else {
    die("ALGO must be bcast, allreduce or alltoall");
  }
  double finish = MPI_Wtime() - start, latest = 0;
  MPI_Reduce(&finish, &latest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s %ld %d %.9e\n", algo, bytes, n, latest);
  MPI_Finalize();
  return 0;
}
