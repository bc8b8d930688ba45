#ifndef ROUTERANKER_CLIBMONGOC_SHIM_H
#define ROUTERANKER_CLIBMONGOC_SHIM_H

#include <stdlib.h>
#include <mongoc/mongoc.h>

/*
 * libmongoc fills "reply" out-parameters with bson_init/bson_copy_to, which mark the struct as
 * caller-owned storage: handing it a bson_new() pointer would leak that struct. Swift cannot allocate a
 * bson_t itself (the type is opaque: Debian builds it 128-byte aligned), so these two helpers provide
 * correctly aligned, initialized storage for an out-parameter and free it afterwards.
 */
static inline bson_t *rr_bson_out_new (void)
{
   bson_t *b = (bson_t *) aligned_alloc (_Alignof (bson_t), sizeof (bson_t));
   if (b) {
      bson_init (b);
   }
   return b;
}

static inline void rr_bson_out_free (bson_t *b)
{
   if (b) {
      bson_destroy (b);
      free (b);
   }
}

#endif
